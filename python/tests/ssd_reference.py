"""Mamba-2's selective scan in float64, step by step over time (mamba_ssm's semantics): the
oracle the tests compare tilecc.mamba2 against."""

import numpy as np


def ssd_reference(x, dt, A, B, C, D=None, z=None, dt_bias=None, initial_states=None, dt_softplus=False,
                  dt_limit=(0.0, float("inf"))):
    """(y, final_states) in float64 for NumPy inputs of any float dtype."""
    f = lambda a: None if a is None else np.asarray(a, dtype=np.float64)
    x, dt, A, B, C, D, z, dt_bias, initial_states = map(f, (x, dt, A, B, C, D, z, dt_bias, initial_states))
    batch, length, heads, headdim = x.shape
    groups, dstate = B.shape[2:]
    if dt_bias is not None:
        dt = dt + dt_bias
    if dt_softplus:
        dt = np.where(dt <= 20.0, np.log1p(np.exp(np.minimum(dt, 20.0))), dt)
    dt = np.clip(dt, dt_limit[0], dt_limit[1])
    Bh = np.repeat(B, heads // groups, axis=2)  # (b, T, H, N)
    Ch = np.repeat(C, heads // groups, axis=2)
    state = np.zeros((batch, heads, headdim, dstate)) if initial_states is None else initial_states.copy()
    y = np.empty_like(x)
    for t in range(length):
        decay = np.exp(dt[:, t] * A)  # (b, H)
        state = (state * decay[:, :, None, None]
                 + (dt[:, t, :, None, None] * x[:, t, :, :, None]) * Bh[:, t, :, None, :])
        y[:, t] = np.einsum("bhpn,bhn->bhp", state, Ch[:, t])
    if D is not None:
        y += x * (D[:, None] if D.ndim == 1 else D)
    if z is not None:
        y *= z / (1.0 + np.exp(-z))
    return y, state
