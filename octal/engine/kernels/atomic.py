"""An atomic fetch-and-add on an int64 array element, for kernels whose threads take work from a shared counter
(dynamic sharing: a thread that finishes its own part early takes the next piece). numba has no atomics on the
CPU, so this is LLVM's `atomicrmw add` (sequentially consistent) through an intrinsic."""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def fetch_add(typingctx, counter, index, amount):
    """counter[index] += amount atomically; returns the value before (an int64 array, int64 index and amount)."""
    sig = types.int64(counter, index, amount)

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, array, [args[1]])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return sig, codegen
