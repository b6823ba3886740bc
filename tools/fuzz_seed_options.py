#!/usr/bin/env python3
"""Write each seed module of DIR again under several option sets for the fuzz
target (tests/fuzz/fuzz_translate.c reads a ragged tail of 1-3 bytes as
options: see its opening comment), so fuzzing starts from every module in
physical and logical pointer modes, native math, --no-validate-input, and
with device features missing.

usage: fuzz_seed_options.py DIR      (writes DIR/NAME.optK.spv beside each NAME.spv)
"""
import pathlib
import sys

# (byte 0, byte 1, byte 2) of the tail; see fuzz_translate.c.
OPTION_SETS = [
    (1, 2, 0x00),           # vulkan1.2, --pointers=physical
    (2, 1 | 0x20, 0x00),    # vulkan1.3, --pointers=logical, --scalar-block-layout
    (0, 0x04 | 0x08, 0x00),  # --math=native -cl-fast-relaxed-math
    (0, 0x80, 0x00),        # --no-validate-input
    (0x04 | 0x20 | 0x40, 0x10 | 0x40, 0x00),  # POD UBO, constant args UBO, distinct sets, DAZ, denorm-preserve
    (1, 0, 0xFF),           # every optional device feature missing
    (2, 2, 0x04 | 0x10),    # vulkan1.3 physical without int64 and fp64
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = pathlib.Path(sys.argv[1])
    n = 0
    for p in sorted(d.glob("*.spv")):
        if ".opt" in p.name:
            continue
        data = p.read_bytes()
        if len(data) % 4:
            continue
        for k, tail in enumerate(OPTION_SETS):
            (d / f"{p.stem}.opt{k}.spv").write_bytes(data + bytes(tail))
            n += 1
    print(f"wrote {n} seeds")


if __name__ == "__main__":
    main()
