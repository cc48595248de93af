"""The polynomial every stage works on: sparse terms (:mod:`.sparse`), their exact coefficients
(:mod:`.coefficients`), and the polynomial written back as text (:mod:`.text`)."""
from .sparse import MAX_CELLS, MAX_EXPONENT, Polynomial, to_number

__all__ = ["Polynomial", "to_number", "MAX_EXPONENT", "MAX_CELLS"]
