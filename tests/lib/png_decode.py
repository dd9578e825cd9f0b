"""A PNG decoder for the tests that check the charts the tools draw: it
checks what it reads (signature, every chunk's CRC, IHDR, IDAT inflating to
height x (1 + width x bytes per pixel), the filter bytes) and returns
(width, height, pixels), pixels[y][x] an (r, g, b, a) tuple."""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def paeth(left, up, up_left):
    p = left + up - up_left
    if abs(p - left) <= abs(p - up) and abs(p - left) <= abs(p - up_left):
        return left
    return up if abs(p - up) <= abs(p - up_left) else up_left


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == SIGNATURE, "no PNG signature"
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND", [k for k, _ in chunks]
    w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = w * bpp
    assert len(raw) == h * (1 + stride), (len(raw), h * (1 + stride))
    pixels, prev = [], bytearray(stride)
    for y in range(h):
        start = y * (1 + stride)
        f, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        assert f <= 4, f
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, up_left = prev[i], (prev[i - bpp] if i >= bpp else 0)
            predicted = (0, left, up, (left + up) // 2, paeth(left, up, up_left))[f]
            line[i] = (line[i] + predicted) & 255
        pixels.append([tuple(line[x:x + 3]) + ((255,) if bpp == 3 else (line[x + 3],))
                       for x in range(0, stride, bpp)])
        prev = line
    return w, h, pixels
