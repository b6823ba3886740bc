"""Prints a .npy file as 'dtype shape values' without NumPy (format 1.0, C order)."""
import ast
import struct
import sys

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY" and data[6] == 1, "not a NumPy 1.0 file"
    hlen = struct.unpack("<H", data[8:10])[0]
    assert (10 + hlen) % 64 == 0, "header not padded to 64 bytes"
    header = ast.literal_eval(data[10:10 + hlen].decode("latin1"))
    descr, shape = header["descr"], header["shape"]
    codes = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q",
             "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}
    count = 1
    for d in shape:
        count *= d
    body = data[10 + hlen:]
    fmt = "<" + codes[descr[1:]] * count
    assert len(body) == struct.calcsize(fmt), f"{len(body)} data bytes for shape {shape}"
    values = struct.unpack(fmt, body)
    print(descr, shape, " ".join(f"{v:g}" for v in values))
