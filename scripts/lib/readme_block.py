"""Replaces a generated block of README.md: the lines between
<!-- NAME:begin --> and <!-- NAME:end -->."""

import re


def replace_readme_block(readme_path, name, text):
    """Writes `text` (without a trailing newline) between the markers; returns
    False, changing nothing, when the README has no such markers. A stamp in
    the begin marker (<!-- NAME:begin commit=... date=... -->, scripts/results.sh)
    is dropped: new figures are unstamped until scripts/results.sh stamps them."""
    readme = open(readme_path).read()
    begin = re.search(rf"<!-- {re.escape(name)}:begin(?: [a-z]+=[^ >]*)* -->\n", readme)
    end = f"<!-- {name}:end -->"
    if not begin or end not in readme[begin.end():]:
        return False
    rest = readme[begin.end():].split(end, 1)[1]
    with open(readme_path, "w") as f:
        f.write(readme[:begin.start()] + f"<!-- {name}:begin -->\n" + text + "\n" + end + rest)
    return True
