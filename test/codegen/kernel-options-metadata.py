# occupancy reaches the launch metadata ("occupancy", beside .minnctapersm in the cubin), and
# so do the threads per block: the num_threads option, --num-threads for kernels without it,
# else the compiler's choice (tile-choose-threads: 256 for a 128x256 accumulator).
# REQUIRES: ptxas
# RUN: tile-cc %s --kernel busy --arg x=f32:1 --emit=cubin -o %t.cubin
# RUN: FileCheck %s < %t.json
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --emit=cubin -o %t.plain.cubin
# RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.json
# RUN: tile-cc %s --kernel sized --arg x=f32:1 --emit=cubin -o %t.sized.cubin
# RUN: FileCheck %s --check-prefix=SIZED < %t.sized.json
# RUN: tile-cc %s --kernel sized --arg x=f32:1 --num-threads 512 --emit=cubin -o %t.sized2.cubin
# RUN: FileCheck %s --check-prefix=SIZED < %t.sized2.json
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --num-threads 512 --emit=cubin -o %t.plain512.cubin
# RUN: FileCheck %s --check-prefix=PLAIN512 < %t.plain512.json
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=256 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=cubin -o %t.mm.cubin --remarks 2>&1 | FileCheck %s --check-prefix=CHOSEN-REMARK
# RUN: FileCheck %s --check-prefix=CHOSEN < %t.mm.json
# CHOSEN-REMARK: remark: 256 threads per block for kernel 'matmul': at 128 this 32768-element accumulator would take 256 registers per thread (more than 128)
# CHOSEN: "threads_per_block": 256
# PLAIN512: "threads_per_block": 512
import cuda.tile as ct


# CHECK: "occupancy": 4
@ct.kernel(occupancy=4)
def busy(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# PLAIN: "occupancy": 1
# PLAIN: "threads_per_block": 128
@ct.kernel
def plain(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# SIZED: "threads_per_block": 256
@ct.kernel(num_threads=256)
def sized(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (256,)) + 1.0)
