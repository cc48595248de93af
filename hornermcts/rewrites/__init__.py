"""Rewrites of an expanded polynomial before its order is searched: new variables
(:mod:`.substitution`) and factors (:mod:`.factoring`), each kept only when it pays."""
