# Does not parse: a helper (always compiled) with a syntax error.
import cuda.tile as ct


@ct.function
def bad(x):
    return x +
