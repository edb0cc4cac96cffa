"""bench/pair_models.py: the ONNX pair-classifier wrapper, on tiny models built here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import onnx  # the `export` extra, which `make test` installs
from onnx import TensorProto, helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from pair_models import PairModel, passage  # noqa: E402

from cairn.model import Hit  # noqa: E402

EXPORTED_LEN = 8  # the fixed length the fake model is "exported" with


def _model(path: Path, token_types: bool = False, classes: int = 2) -> Path:
    """logits = [-s, s] (or `classes` copies) with s = sum(input_ids * mask) + 1000 x the
    padded positions (+ 100 x sum of the token type ids): a score that shows which ids, mask,
    padding and type ids were fed."""
    dims = ["b", EXPORTED_LEN]
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, dims),
              helper.make_tensor_value_info("attention_mask", TensorProto.INT64, dims)]
    nodes = [helper.make_node("Mul", ["input_ids", "attention_mask"], ["masked"]),
             helper.make_node("ReduceSum", ["masked", "axes"], ["s_masked"], keepdims=1),
             helper.make_node("Sub", ["one", "attention_mask"], ["padded"]),
             helper.make_node("ReduceSum", ["padded", "axes"], ["n_padded"], keepdims=1),
             helper.make_node("Mul", ["n_padded", "thousand"], ["s_padded"]),
             helper.make_node("Add", ["s_masked", "s_padded"], ["s_ids"])]
    total = "s_ids"
    if token_types:
        inputs.append(helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, dims))
        nodes += [helper.make_node("ReduceSum", ["token_type_ids", "axes"], ["s_tt"], keepdims=1),
                  helper.make_node("Mul", ["s_tt", "hundred"], ["s_tt100"]),
                  helper.make_node("Add", ["s_ids", "s_tt100"], ["s_all"])]
        total = "s_all"
    nodes += [helper.make_node("Cast", [total], ["s"], to=TensorProto.FLOAT),
              helper.make_node("Neg", ["s"], ["neg"]),
              helper.make_node("Concat", ["neg", "s"] + ["s"] * (classes - 2), ["logits"], axis=1)]
    inits = [helper.make_tensor("axes", TensorProto.INT64, [1], [1]),
             helper.make_tensor("hundred", TensorProto.INT64, [], [100]),
             helper.make_tensor("thousand", TensorProto.INT64, [], [1000]),
             helper.make_tensor("one", TensorProto.INT64, [], [1])]
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["b", classes])
    graph = helper.make_graph(nodes, "pair", inputs, [out], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def _tokenizer(path: Path) -> Path:
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from tokenizers.processors import TemplateProcessing
    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "a": 3, "b": 4}
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
                                            special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    tok.enable_padding(length=EXPORTED_LEN)  # as a file saved for a fixed-length export would be
    tok.save(str(path))
    return path


def test_pair_score_runs_unpadded_on_a_fixed_length_export(tmp_path):
    m = PairModel(_model(tmp_path / "m.onnx"), _tokenizer(tmp_path / "t.json"), 64, token_types=False)
    # [CLS] a [SEP] b b [SEP] = 1 + 3 + 2 + 4 + 4 + 2 = 16 (6 tokens, not the exported 8: the
    # length was made symbolic and the tokenizer's own padding switched off)
    assert m("a", "b b") == pytest.approx(32.0)
    # 10 tokens: longer than the export, also fine
    assert m("a a a", "b b b b b") == pytest.approx(2 * (1 + 9 + 2 + 20 + 2))


def test_label_zero_flips_the_score(tmp_path):
    m = PairModel(_model(tmp_path / "m.onnx"), _tokenizer(tmp_path / "t.json"), 64, token_types=False, label=0)
    assert m("a", "b b") == pytest.approx(-32.0)


def test_token_type_ids_are_fed_when_asked(tmp_path):
    m = PairModel(_model(tmp_path / "m.onnx", token_types=True), _tokenizer(tmp_path / "t.json"), 64,
                  token_types=True)
    # second segment "b b [SEP]" has type id 1: + 100 x 3
    assert m("a", "b b") == pytest.approx(2 * (16 + 300))


def test_truncation_to_max_len(tmp_path):
    m = PairModel(_model(tmp_path / "m.onnx"), _tokenizer(tmp_path / "t.json"), 6, token_types=False)
    # at most 6 tokens: [CLS] a [SEP] b b [SEP] whatever the passage's length
    assert m("a", "b b b b b b b") == pytest.approx(32.0)


def test_missing_file_is_named(tmp_path):
    tok = _tokenizer(tmp_path / "t.json")
    with pytest.raises(FileNotFoundError, match="nope.onnx"):
        PairModel(tmp_path / "nope.onnx", tok, 64, token_types=False)
    with pytest.raises(FileNotFoundError, match="nope.json"):
        PairModel(_model(tmp_path / "m.onnx"), tmp_path / "nope.json", 64, token_types=False)


def test_a_model_without_two_logits_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"expected logits \[batch, 2\]"):
        PairModel(_model(tmp_path / "m3.onnx", classes=3), _tokenizer(tmp_path / "t.json"), 64, token_types=False)


def _hit(speaker: str | None, text: str) -> Hit:
    return Hit(id="c1", note_id="n1", source_id="s1", title="t", path="p.md", source=None, snippet=text,
               text=text, start=0, end=len(text), page=None, score=0.5, signals={}, speaker=speaker)


def test_passage_names_the_speaker_of_a_chat_message():
    assert passage(_hit("Melanie", "I signed up for a pottery class.")) == "Melanie: I signed up for a pottery class."
    assert passage(_hit(None, "The boiler was serviced in May.")) == "The boiler was serviced in May."


def test_score_without_a_model_is_a_usage_error(tmp_path, capsys):
    from pair_models import main
    with pytest.raises(SystemExit) as exc:
        main(["score", str(tmp_path / "replay.pkl"), str(tmp_path / "out.pkl")])
    assert exc.value.code == 2
    assert "score needs --onnx and --tokenizer" in capsys.readouterr().err
