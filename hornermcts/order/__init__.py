"""The order search: the Horner-order problem the search core plays (:mod:`.problem`)
and the order fixed by the polynomial's structure (:mod:`.structure`)."""
