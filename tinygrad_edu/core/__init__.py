"""The core: what a learner reads to see how autograd works, and nothing else. Read it in this order:

1. ``tensor.py``      the Tensor: a numpy array plus autograd's metadata (requires_grad, grad, grad_fn, _version),
                      and its methods, each calling an op of the derivative table
2. ``function.py``    what the forward pass records: nodes (grad_fn), saved tensors with their versions,
                      AccumulateGrad, and Function, the one mechanism that makes nodes, for built-ins and learners
3. ``derivatives.py`` the derivative table: one entry per op (PyTorch's node name, the forward on arrays, a
                      backward formula per input), and the small step that makes each entry a Function
4. ``engine.py``      backward() and grad(): count dependencies, run the newest ready node, sum what arrives
5. ``grad_mode.py``   the switches: no_grad, enable_grad, set_grad_enabled, inference_mode, and the speed switch

Beside the core, read last or never (the core imports them, and nothing else of the library): ``_messages`` (PyTorch's
exact texts, raised by name), ``_checks`` (the checks behind PyTorch's errors), ``_dtype`` (dtypes and promotion),
``_arrays`` (forwards where numpy's rules differ, sums in PyTorch's order), ``_printing``, ``_hooks`` (hooks on nodes,
and their handles), ``_quiet`` (numpy's warnings, off while ops compute), ``_steal`` (a speed trick's reference counts),
``_legacy`` (old-style Functions, refused), ``_decorators`` (grad modes as decorators).

The library's breadth (indexing, linear algebra, comparisons, in-place forms...) is the public ``tinygrad_edu.Tensor``
(``_tensor.py``), a subclass of the core's Tensor with those methods in its class body; it registers itself
(``function.Tensors.cls``) so that every result is an instance of it. The speed tricks: ``grad_mode.Speed``.
"""
