# Found through the search path (tile-cc -I .../path), not beside the importing file.
import cuda.tile as ct


@ct.function
def twice(x):
    return x + x


OFFSET = 1.0
