"""The order search: the Horner-order problem the search core plays (:mod:`.problem`),
the order fixed by the polynomial's structure (:mod:`.structure`) and the orders built
from how a Horner scheme splits the terms (:mod:`.splitting`)."""
