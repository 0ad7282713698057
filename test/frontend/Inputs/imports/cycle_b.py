from .cycle_a import k


def g(t):
    return t
