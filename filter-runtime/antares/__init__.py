"""Compatibility package so that filters written for the real `antares.devkit` import unchanged."""
