#===- autodiff_compare/common.py - name and errors -------------------------===#
#
# The program's name and its one error channel: a Failure raised anywhere
# is printed by main() as `autodiff-compare: error: ...` with exit status 1.
#
#===----------------------------------------------------------------------===#
import sys

PROG = "autodiff-compare"


class Failure(Exception):
    """A problem to report as `autodiff-compare: error: ...`, exit 1."""


def error(message):
    print("%s: error: %s" % (PROG, message), file=sys.stderr)
