/* tile-cc's C API: compile kernels of the tile language at run time and launch them on DLPack
 * tensors, on the GPU or through the interpreter on host memory. It is what the Python package
 * (python/tilecc) loads with ctypes, and what any language with a C foreign-function interface
 * can call. libtilecc.so exports these functions and nothing else.
 *
 *   tilecc_context *ctx;        tilecc_context_create(TILECC_BACKEND_AUTO, 0, &ctx);
 *   tilecc_program *program;    tilecc_program_create(source, "add.py", &program);
 *   tilecc_arg args[4] = {{TILECC_ARG_TENSOR, &a}, {TILECC_ARG_TENSOR, &b},
 *                         {TILECC_ARG_TENSOR, &c}, {TILECC_ARG_INT, NULL, NULL, 1024}};
 *   uint32_t grid[1][3] = {{blocks, 1, 1}};
 *   if (tilecc_launch(ctx, program, "vec_add", grid, 1, args, 4, stream) != TILECC_OK)
 *     fprintf(stderr, "%s\n", tilecc_last_error());
 *
 * Every function returns a tilecc_status; on failure tilecc_last_error() holds the message
 * (with the kernel source's location for compile errors). Nothing crosses this boundary as a
 * C++ exception. Handles are thread-safe to share; the last error is per thread.
 *
 * Versioned: TILECC_C_API_VERSION grows when functions are added; a change that breaks callers
 * renames the library (libtilecc.so.N).
 */
#ifndef TILE_C_TILECC_H
#define TILE_C_TILECC_H

#include <dlpack/dlpack.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILECC_C_API_VERSION 4 /* 2: tilecc_ssd_plan, tilecc_ssd_forward; 3: TILECC_ARG_TENSOR_LIST; 4: seq_idx */

typedef enum tilecc_status {
  TILECC_OK = 0,
  TILECC_ERROR_INVALID_ARGUMENT = 1, /* bad arguments, a kernel that does not compile */
  TILECC_ERROR_NO_DRIVER = 2,        /* no CUDA driver (libcuda.so.1) */
  TILECC_ERROR_NO_DEVICE = 3,        /* no such GPU */
  TILECC_ERROR_DRIVER = 4,           /* a CUDA driver call failed */
  TILECC_ERROR_IO = 5,               /* a file could not be read or written */
  TILECC_ERROR_INVALID_METADATA = 6, /* a corrupt cache or tuning file that could not be set aside */
  TILECC_ERROR_INTERNAL = 7          /* anything else (a bug: please report it) */
} tilecc_status;

typedef enum tilecc_backend {
  TILECC_BACKEND_AUTO = 0,       /* the interpreter when TILE_INTERPRET is set or no GPU works */
  TILECC_BACKEND_GPU = 1,        /* the GPU, or TILECC_ERROR_NO_DRIVER / NO_DEVICE */
  TILECC_BACKEND_INTERPRETER = 2 /* the CPU interpreter, on host (kDLCPU) tensors */
} tilecc_backend;

typedef enum tilecc_arg_kind {
  TILECC_ARG_TENSOR = 0, /* `tensor`: a DLTensor (CUDA memory on the GPU, host on the interpreter) */
  TILECC_ARG_INT = 1,    /* `int_value`, typed by `dtype` (default int32, int64 when it does not fit) */
  TILECC_ARG_FLOAT = 2,  /* `float_value`, typed by `dtype` (default float32) */
  TILECC_ARG_BOOL = 3,   /* `int_value` != 0 */
  /* `tensors`: `int_value` DLTensors of one dtype and rank, for a parameter that takes a list
   * of arrays (the kernel's NAME[0] ... NAME[n-1]; cuTile's ct.launch passes a Python list) */
  TILECC_ARG_TENSOR_LIST = 4
} tilecc_arg_kind;

/* One argument of a launch, in the kernel's parameter order. A number given for a ct.Constant
 * parameter specializes the kernel (its `dtype` is ignored); given for any other parameter, it
 * is a scalar argument of `dtype` (a cuTile dtype name, "int64", "float16", ...; NULL for the
 * default of its kind). Tensors are borrowed for the call (the GPU launch is asynchronous: keep
 * their memory alive until the stream has run it). */
typedef struct tilecc_arg {
  tilecc_arg_kind kind;
  union {
    const DLTensor *tensor;
    const DLTensor *const *tensors; /* TILECC_ARG_TENSOR_LIST */
  };
  const char *dtype;
  int64_t int_value;
  double float_value;
} tilecc_arg;

typedef struct tilecc_context tilecc_context; /* a backend: device, JIT caches, autotuner */
typedef struct tilecc_program tilecc_program; /* a kernel source file's text */

/* TILECC_C_API_VERSION of the library; the compiler's version string ("0.1.0"). */
int tilecc_api_version(void);
const char *tilecc_version(void);

/* The message of the last call on this thread that failed ("" when none has). */
const char *tilecc_last_error(void);

/* A backend on GPU `device` (ignored by the interpreter). */
tilecc_status tilecc_context_create(tilecc_backend backend, int device, tilecc_context **out);
void tilecc_context_destroy(tilecc_context *context);
/* 1 on the GPU, 0 on the interpreter. */
int tilecc_context_is_gpu(const tilecc_context *context);
/* "the GPU (NVIDIA H200, sm_90a)" or "the interpreter (TILE_INTERPRET is set)"; lives as long
 * as the context. */
const char *tilecc_context_description(const tilecc_context *context);
/* Waits for every launch of the context (the whole device on the GPU). */
tilecc_status tilecc_context_synchronize(tilecc_context *context);

/* A kernel source (`file_name` is what messages name). The source is parsed when a kernel of
 * it is first inspected or launched. */
tilecc_status tilecc_program_create(const char *source, const char *file_name, tilecc_program **out);
void tilecc_program_destroy(tilecc_program *program);

/* The declaration of `kernel` as JSON (free it with tilecc_free):
 *   {"name": "vec_add", "params": [{"name": "a", "constant": false, "has_default": false}, ...],
 *    "autotune_configs": [{"TILE": 64}, ...], "autotune_key": ["n"]}
 * TILECC_ERROR_INVALID_ARGUMENT with the diagnostics when the source does not parse or has no
 * such kernel. */
tilecc_status tilecc_program_inspect(tilecc_program *program, const char *kernel, char **json_out);
void tilecc_free(void *memory);

/* Launches `kernel` of `program` with `args` in parameter order (trailing constants that have
 * defaults may be left out), on `stream` (a CUstream; NULL: the default stream; ignored by the
 * interpreter, which runs the whole grid before returning). The kernel is compiled for the
 * constants' values and the arguments' dtypes, ranks and alignment on first use and cached (in
 * memory, and on disk on the GPU).
 *
 * `grids` holds blocks along x, y and z: one grid, or, for a kernel with @ct.autotune
 * configurations, one per configuration in declaration order (its tiles may differ). Such a
 * kernel is tuned on the first launch of each key, as the C++ Tuner does (TILE_AUTOTUNE*
 * apply): every configuration runs on these arguments while timed, so a kernel that reads
 * what it writes must not be tuned (TILE_AUTOTUNE_FORCE pins one). */
tilecc_status tilecc_launch(tilecc_context *context, tilecc_program *program, const char *kernel,
                            const uint32_t (*grids)[3], size_t num_grids, const tilecc_arg *args, size_t num_args,
                            void *stream);

/* ---- The Mamba-2 chunked scan: mamba_ssm's mamba_chunk_scan_combined, forward ------------- */

/* Inputs, in this order (docs/mamba2.md): x (b, T, H, P), dt (b, T, H), A (H), B (b, T, G, N),
 * C (b, T, G, N), then the optional D (H or H, P), z (b, T, H, P), dt_bias (H),
 * initial_states (b, H, P, N) and seq_idx (b, T, int32: packed sequences; since version 4),
 * NULL when absent. Any strides. */
#define TILECC_SSD_NUM_INPUTS 10
/* Outputs, in this order: y (b, T, H, P), final_states (b, H, P, N), and the intermediates
 * dt_out, dA_cumsum (b, H, nc, Q), states (b, nc, H, P, N) and cb (b, nc, G, Q, Q). Contiguous,
 * in the dtypes and shapes tilecc_ssd_plan gives. */
#define TILECC_SSD_NUM_OUTPUTS 6

typedef struct tilecc_ssd_options {
  int32_t chunk_size;    /* Q: a power of two from 16 to 256; 0: the plan's choice */
  int32_t dt_softplus;   /* nonzero: dt = softplus(dt + dt_bias) */
  double dt_min, dt_max; /* dt clamped to [dt_min, dt_max]; 0 and INFINITY: no clamp */
  const char *y_dtype;   /* y's dtype ("bfloat16", ...); NULL or "": x's */
  const char *precision; /* products: "native" (the data's type) or "tf32"; NULL: native */
} tilecc_ssd_options;

/* Checks the inputs' dtypes and shapes (the messages name the tensor) and writes the outputs'
 * as JSON: {"chunk_size": Q, "outputs": [{"name": "y", "dtype": "bfloat16", "shape": [...]},
 * ...]} in output order. Free it with tilecc_free. */
tilecc_status tilecc_ssd_plan(const DLTensor *const *inputs, const tilecc_ssd_options *options, char **json_out);

/* Runs the forward pass on `stream` (NULL: the default stream) into the caller's outputs and
 * returns once it is queued (the interpreter runs it before returning). The tensors are in the
 * context's memory (host for the interpreter, its device for the GPU). The first call for a new
 * shape compiles and tunes the kernels (and synchronizes); later calls allocate nothing and do
 * not synchronize, so a CUDA graph may capture them. */
tilecc_status tilecc_ssd_forward(tilecc_context *context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                                 const tilecc_ssd_options *options, void *stream);

/* The gradients of the forward pass (since version 4) for loss = sum(dy * y) + sum(dfinal_states
 * * final_states): inputs and options as tilecc_ssd_forward's, dy (b, T, H, P), dfinal_states
 * (b, H, P, N) or NULL; gradients has TILECC_SSD_NUM_INPUTS slots in the inputs' order, each a
 * contiguous float32 array of its input's shape, exactly those of the inputs given (seq_idx's
 * slot NULL). Runs on `stream` and returns when the stream has run it. */
tilecc_status tilecc_ssd_backward(tilecc_context *context, const DLTensor *const *inputs, const DLTensor *dy,
                                  const DLTensor *dfinal_states, const DLTensor *const *gradients,
                                  const tilecc_ssd_options *options, void *stream);

/* Each packed sequence's final state (mamba_ssm's return_varlen_states; since version 4): after
 * tilecc_ssd_forward over these inputs and options with seq_idx and batch 1, into `outputs`,
 * writes to varlen_states ((nseq, H, P, N) float32, contiguous) the state after the last
 * position of each sequence cu_seqlens ((nseq + 1,) int32, non-decreasing from 0 to T)
 * delimits. Queued on `stream` like tilecc_ssd_forward. */
tilecc_status tilecc_ssd_varlen_states(tilecc_context *context, const DLTensor *const *inputs,
                                       const DLTensor *const *outputs, const DLTensor *cu_seqlens,
                                       const DLTensor *varlen_states, const tilecc_ssd_options *options, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_TILECC_H */
