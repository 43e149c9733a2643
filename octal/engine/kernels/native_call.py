"""Calling a compiled kernel by its address from inside another one, so that numba does not link the callee's code
into the caller's library and compile it again there (numba copies a callee into each caller's library and LLVM
optimises it anew: a parallel pass is five such libraries). The address is a plain argument, so the caller stays
cacheable; it is the callee's native entry (numba's own calling convention), looked up once per process."""

from __future__ import annotations

from numba import types
from numba._dispatcher import compute_fingerprint
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def call_at(typingctx, address, args, like):
    """Call the numba function whose native entry is at `address` (from native_address) with the tuple `args`, and
    return its result, whose type is `like`'s (a value of that type, or None for a function that returns nothing).
    An exception it raises is raised here."""
    if not isinstance(address, types.Integer) or not isinstance(args, types.BaseTuple):
        return None
    if isinstance(like, (types.NoneType, types.Omitted)):
        result = types.none
    elif isinstance(like, types.BaseTuple):
        result = types.BaseTuple.from_types([types.unliteral(x) for x in like.types])
    else:
        result = types.unliteral(like)

    def codegen(context, builder, signature, llargs):
        argtypes = list(args.types)
        values = cgutils.unpack_tuple(builder, llargs[1], len(argtypes))
        fnty = context.call_conv.get_function_type(result, argtypes)
        callee = builder.inttoptr(llargs[0], fnty.as_pointer())
        status, value = context.call_conv.call_function(builder, callee, result, argtypes, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return context.get_dummy_value() if result == types.none else value

    return result(address, args, like), codegen


def compile_for(kernel, args: tuple):
    """Compile the numba function `kernel` for the types of `args` (or load it from the cache), without calling it;
    returns numba's record of the result."""
    signature = tuple(kernel.typeof_pyval(a) for a in args)
    kernel.compile(signature)
    return kernel.overloads[signature]


_addresses: dict[tuple, int] = {}  # (kernel, the arguments' fingerprints, the result's) → native entry


def native_address(kernel, args: tuple, like=None) -> int:
    """The native entry of the numba function `kernel` for the types of `args`, compiled (or loaded from the cache)
    first if need be; its result must have `like`'s type, as call_at will read it. Remembered by numba's own
    fingerprints of the arguments (what its dispatcher picks a compiled version by: about 2 µs for 30 arguments,
    where asking numba costs 100 µs or more, too much for a pass of a few hundred heaps)."""
    try:
        key = (kernel, tuple(compute_fingerprint(a) for a in args), compute_fingerprint(like))
    except (TypeError, ValueError):  # a value numba has no fingerprint for: ask it every time
        key = None
    address = _addresses.get(key) if key is not None else None
    if address is None:
        compiled = compile_for(kernel, args)
        expected = types.none if like is None else kernel.typeof_pyval(like)
        if compiled.signature.return_type != expected:
            raise TypeError(f"{kernel.py_func.__qualname__} returns {compiled.signature.return_type}, not {expected}")
        address = compiled.library.get_pointer_to_function(compiled.fndesc.mangled_name)
        if key is not None:
            _addresses[key] = address
    return address
