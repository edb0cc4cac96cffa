"""Spoken replies (cairn.assistant.voice): how long the packaged piper voice takes to speak a
reply and how large the voice message is, against the same speech as uncompressed WAV.

    python bench/voice.py [--n 5]

Prints, per reply length, the synthesis + OGG/Opus encode time, the audio's duration, the
real-time factor (time to make / seconds of speech; below 1 = faster than speaking) and the
Opus message size as a ratio of the 16-bit WAV of the same samples (the baseline, made in the
same run). The first call's model load is reported apart.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

SENTENCE = ("The boiler should hold one point two bar when it is cold, and the service is due in "
            "March; the plumber's number is in the household handbook. ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=5, help="repetitions per length")
    args = ap.parse_args()
    import numpy as np

    from cairn.assistant import voice as V
    from cairn.config import load_settings
    settings = load_settings(Path(tempfile.mkdtemp()) / "home")
    t0 = time.perf_counter()
    V._load(V.voice_for(settings))
    print(f"voice load: {time.perf_counter() - t0:.2f} s ({V.voice_for(settings)})")
    for sentences in (1, 3, 8):
        text = SENTENCE * sentences
        make, secs, ogg = [], 0.0, 0
        for _ in range(args.n):
            t = time.perf_counter()
            sp = V.speak(settings, text)
            make.append(time.perf_counter() - t)
            secs, ogg = sp.seconds, len(sp.audio)
        chunks = list(V._load(V.voice_for(settings)).synthesize(V.spoken_text(text)))
        wav = 44 + 2 * int(np.concatenate([c.audio_int16_array for c in chunks]).size)
        med = sorted(make)[len(make) // 2]
        print(f"{len(text):5d} chars: {secs:6.2f} s of speech, made in {med:5.2f} s (median of {args.n}), "
              f"real-time factor {med / secs:.3f}; OGG/Opus {ogg / 1024:6.1f} KiB = {ogg / wav:.3f} x WAV "
              f"({wav / 1024:.1f} KiB)")


if __name__ == "__main__":
    main()
