#!/usr/bin/env python3
"""Replaces a generated block of a Markdown file with the text on standard input.

A block is the lines between `<!-- generated NAME -->` and `<!-- end generated NAME -->`; the
new text is put there after a line saying when and by which command it was made. Used by the
Makefile's bench-car and bench-truck targets to regenerate their tables in docs/benchmarks.md.

Usage: scripts/doc_block.py FILE NAME COMMAND < TEXT
"""
import datetime
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path, name, command = sys.argv[1:]
    text = sys.stdin.read().strip()
    if not text:  # a failed benchmark must not wipe the table it would have written
        print(f"doc_block.py: nothing on standard input for block '{name}'; {path} is unchanged", file=sys.stderr)
        return 1
    begin, end = f"<!-- generated {name} -->", f"<!-- end generated {name} -->"
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        print(f"doc_block.py: {path}: expected one '{begin}' line followed by one '{end}' line "
              f"(found {len(starts)} and {len(ends)})", file=sys.stderr)
        return 1
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    block = [f"*Generated {stamp} by `{command}`.*", "", text]
    lines[starts[0] + 1:ends[0]] = block
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"doc_block.py: block '{name}' of {path} regenerated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
