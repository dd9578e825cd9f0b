"""Replaces a generated block of README.md: the lines between
<!-- NAME:begin --> and <!-- NAME:end -->."""


def replace_readme_block(readme_path, name, text):
    """Writes `text` (without a trailing newline) between the markers; returns
    False, changing nothing, when the README has no such markers."""
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    readme = open(readme_path).read()
    if begin not in readme or end not in readme:
        return False
    head, rest = readme.split(begin, 1)
    with open(readme_path, "w") as f:
        f.write(head + begin + text + "\n" + end + rest.split(end, 1)[1])
    return True
