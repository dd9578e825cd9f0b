#!/usr/bin/env python3
"""Functions longer than a limit in the product's C and C++ sources.

A function may be longer when its first body line (or the comment above its
signature) gives the reason: a comment holding "long:". Prints one line per
function over the limit (lines, file:line, name) and exits 1 when any lacks
a reason. Usage: long-functions.py [--root DIR] [--limit 80]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from c_sources import c_sources  # noqa: E402

SOURCE_DIRS = ("common", "tools", "plugins", "bench", "fuzz")
NOT_A_FUNCTION = re.compile(r"\b(namespace|struct|class|enum|union|extern\s+\"C\")\b|=\s*$|\]\s*$")


def strip(text):
    """Comments, strings and characters blanked, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(first line, last line, head) of every function body, 1-based."""
    code = strip(text)
    stack, head_start = [], 0
    for i, c in enumerate(code):
        if c == "{":
            head = code[head_start:i]
            is_function = (")" in head and not NOT_A_FUNCTION.search(head.strip())
                           and not any(kind for kind, _ in stack if kind == "function"))
            stack.append(("function" if is_function else "block", (i, head)))
            head_start = i + 1
        elif c == "}":
            if stack:
                kind, (start, head) = stack.pop()
                if kind == "function":
                    yield (code.count("\n", 0, start) + 1, code.count("\n", 0, i) + 1,
                           " ".join(head.split())[-90:])
            head_start = i + 1
        elif c == ";":
            head_start = i + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--limit", type=int, default=80)
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    unexplained = total = 0
    for rel in c_sources(root, SOURCE_DIRS):
        with open(os.path.join(root, rel), errors="replace") as f:
            text = f.read()
        lines = text.split("\n")
        for first, last, head in functions(text):
            length = last - first + 1
            if length <= args.limit:
                continue
            total += 1
            around = "\n".join(lines[max(0, first - 8):first + 2])
            reason = "long:" in around
            unexplained += not reason
            print(f"{length:4d} {rel}:{first} {head}"
                  f"{'' if reason else '  (no reason given)'}")
    print(f"long-functions: {total} over {args.limit} lines, {unexplained} without a reason")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
