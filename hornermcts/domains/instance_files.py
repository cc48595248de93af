"""What the domains' plain-text instance files share: words with their columns, ``#`` comments.

Several domains (knapsack, Latin squares, Kakuro) read line-oriented text
files whose errors must name the file, line and column
(:class:`~hornermcts.parse.ParseError`); :func:`words` splits one line.

Examples
--------
>>> words("  12 7   # a comment")
[(3, '12'), (6, '7')]
"""
from __future__ import annotations

__all__ = ["words"]


def words(raw: str) -> list[tuple[int, str]]:
    """The blank-separated words of a line before any ``#``, with their 1-based columns."""
    text = raw.split("#", 1)[0]
    out = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace():
            j += 1
        out.append((i + 1, text[i:j]))
        i = j
    return out
