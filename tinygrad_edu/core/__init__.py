"""The core: what a learner reads to see how autograd works, and nothing else. Read it in this order:

1. ``tensor.py``      the Tensor: a numpy array plus autograd's metadata (requires_grad, grad, grad_fn, _version),
                      and its methods, each calling an op of the derivative table
2. ``function.py``    what the forward pass records: nodes (grad_fn), saved tensors with their versions,
                      AccumulateGrad, and Function, the one mechanism that makes nodes, for built-ins and learners
3. ``derivatives.py`` the derivative table: one entry per op (PyTorch's node name, the forward on arrays, a
                      backward formula per input), and the small step that makes each entry a Function
4. ``engine.py``      backward() and grad(): count dependencies, run the newest ready node, sum what arrives
5. ``grad_mode.py``   the switches: no_grad, enable_grad, set_grad_enabled, inference_mode, and the speed switch

Beside the core, read last or never: ``_messages`` (PyTorch's exact texts, raised by name), ``_checks`` (the checks
that word PyTorch's errors about shapes, hooks and custom backwards), ``_dtype`` (dtypes and promotion),
``_printing`` (the print format and Size), ``_legacy`` (old-style Functions, refused), ``_decorators`` (grad modes
as decorators). The core imports them; nothing in the core imports the rest of the library.

Where Tensor's methods are: ``tinygrad_edu.Tensor`` is ``tinygrad_edu/_tensor.py``'s class, a subclass of this
core's Tensor, as ``torch.Tensor`` subclasses ``torch._C.TensorBase``. The methods whose derivatives are the idea
(arithmetic, powers, exp and log, trigonometry, activations, sum and mean, view, reshape, expand) are the core's,
in ``tensor.py``; the library's breadth (indexing, linear algebra, comparisons, in-place forms, dtype
conversions) is in the public class's body, each method calling an op of ``tinygrad_edu/ops``. No module attaches
methods to Tensor from outside. The core makes every result an instance of the public class, which registers
itself (``function.Tensors.cls``), as PyTorch's C++ core makes its results instances of ``torch.Tensor``.

Speed is not the story: each speed trick sits in one place, marked ``# speed:``, behind one switch
(``grad_mode.Speed.tricks``); with it off the results are the same.
"""
