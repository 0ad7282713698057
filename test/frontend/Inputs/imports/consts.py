# Module-level constants imported by gelu.py and imports.py.
HALF = 0.5
SCALE = 3.0
