"""ANTARES filter runtime: the locus object, both filter class APIs' engine, the sandboxed worker."""
