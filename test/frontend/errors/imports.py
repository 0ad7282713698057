# Imports of kernel modules that go wrong: a missing module (relative, or absolute and not on
# the search path), a name the module does not define, host code of the module, an error
# inside an imported helper (located in its own file), an import cycle, a module that does not
# parse.
# RUN: not tile-cc %s --kernel missing_relative --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=REL --strict-whitespace
# RUN: not tile-cc %s --kernel missing_absolute --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ABS
# RUN: not tile-cc %s --kernel missing_absolute_call --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ABSCALL
# RUN: not tile-cc %s --kernel missing_name --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: not tile-cc %s --kernel missing_attr --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: not tile-cc %s --kernel host_of_module --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not tile-cc %s --kernel error_inside --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INSIDE --strict-whitespace
# RUN: not tile-cc %S/../Inputs/imports/cycle_a.py --kernel k --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CYCLE
# RUN: not tile-cc %S/../Inputs/imports/imports_broken.py --kernel k --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=BROKEN
# A file whose imports are never used by the compiled kernel compiles as before.
# RUN: tile-cc %s --kernel unaffected --arg x=f32:1 -o /dev/null
import cuda.tile as ct

from .gelu import gelu_tanh
import helpers as h
from helpers import f
from ..Inputs.imports.gelu import no_such_name, host_only
from ..Inputs.imports import gelu as g


# REL:      imports.py:18:1: error: cannot import '.gelu': no gelu.py beside imports.py
# REL-NEXT: from .gelu import gelu_tanh
# REL-NEXT: ^~~~~~~~~~~~~~~~~~~~~~~~~~~
# REL:      imports.py:[[@LINE+3]]:34: note: 'gelu_tanh' is used here
@ct.kernel
def missing_relative(x):
    ct.store(x, index=(0,), tile=gelu_tanh(ct.load(x, index=(0,), shape=(16,))))


# ABS:      imports.py:[[@LINE+4]]:34: error: module 'helpers' cannot be used inside kernels
# ABS:      imports.py:19:1: note: cannot import 'helpers': no helpers.py beside imports.py or on the search path (-I)
@ct.kernel
def missing_absolute(x):
    ct.store(x, index=(0,), tile=h.f(ct.load(x, index=(0,), shape=(16,))))


# ABSCALL:  imports.py:[[@LINE+4]]:34: error: 'f' cannot be used inside kernels
# ABSCALL:  imports.py:20:1: note: cannot import 'helpers': no helpers.py beside imports.py or on the search path (-I)
@ct.kernel
def missing_absolute_call(x):
    ct.store(x, index=(0,), tile=f(ct.load(x, index=(0,), shape=(16,))))


# NAME:     imports.py:21:1: error: cannot import name 'no_such_name' from '..Inputs.imports.gelu' ({{.*}}Inputs/imports/gelu.py)
# NAME:     imports.py:[[@LINE+3]]:34: note: 'no_such_name' is used here
@ct.kernel
def missing_name(x):
    ct.store(x, index=(0,), tile=no_such_name(ct.load(x, index=(0,), shape=(16,))))


# ATTR:     imports.py:[[@LINE+3]]:36: error: module '{{.*}}Inputs/imports/gelu.py' has no name 'nothing'
@ct.kernel
def missing_attr(x):
    ct.store(x, index=(0,), tile=g.nothing(ct.load(x, index=(0,), shape=(16,))))


# HOST:     imports.py:[[@LINE+4]]:34: error: 'host_only' is defined by host code that tile-cc cannot compile
# HOST:     Inputs/imports/gelu.py:19:5: note: `raise` statements are not supported
@ct.kernel
def host_of_module(x):
    ct.store(x, index=(0,), tile=host_only(ct.load(x, index=(0,), shape=(16,))))


# The helper's own line fails: the error points into gelu.py.
# INSIDE:   Inputs/imports/gelu.py:14:46: error: unsupported operand for '*': tuple (1, 2)
# INSIDE-NEXT: inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
@ct.kernel
def error_inside(x):
    ct.store(x, index=(0,), tile=g.gelu_tanh((1, 2)))


@ct.kernel
def unaffected(x):
    ct.store(x, index=(0,), tile=g.SQRT_2_OVER_PI + ct.load(x, index=(0,), shape=(16,)))


# CYCLE:    cycle_b.py:1:1: error: import cycle: cycle_a.py imports cycle_b.py imports cycle_a.py
# BROKEN:   broken.py:7:15: error:
# BROKEN:   imports_broken.py:3:1: note: in '{{.*}}broken.py', imported here
