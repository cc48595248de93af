"""What a form costs: operations in FORM's cost model (:mod:`.counting`), the fast counter of an
order (:mod:`.fast_counter`), and the floating-point error of the emitted program (:mod:`.accuracy`)."""
