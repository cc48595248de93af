"""The research harness, apart from the library (which never imports it): benchmark polynomial
families (:mod:`.families`), FORM as a reference (:mod:`.form`) and sweeps of many searches
(:mod:`.experiments`)."""
