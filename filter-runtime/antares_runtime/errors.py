"""What a filter raises, and what the runtime raises about a filter (the devkits re-export both)."""


class Halt(Exception):
    """Raised by a filter to stop later filters on this locus (reported as raised_halt, not an error)."""


class FilterError(Exception):
    """A filter broke its own contract: undeclared output, wrong type, bad declaration."""
