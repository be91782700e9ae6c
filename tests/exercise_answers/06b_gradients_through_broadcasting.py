"""Answers learners give in exercises/06b_gradients_through_broadcasting.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

REDUCE = """
        def reduce_to(grad, shape):
        {body}
        """

CASES = [
    # broadcast-1: a bias's gradient, by hand
    Case("broadcast-1", "forgot to sum over the batch", "grad_b = G", hint="you forgot to sum"),
    Case("broadcast-1", "summed over the outputs", "grad_b = G.sum(dim=1)", hint="summed over the wrong dimension"),
    Case("broadcast-1", "the mean over the batch", "grad_b = G.mean(dim=0)", hint="the sum, not the mean"),
    Case("broadcast-1", "right, as a product with ones", "grad_b = torch.ones(5) @ G", passes=True),

    # broadcast-2: a column plus a row
    Case("broadcast-2", "forgot to sum", "grad_col = G2\ngrad_row = G2", hint="you forgot to sum"),
    Case("broadcast-2", "the size-1 dimension summed away",
         "grad_col = G2.sum(dim=1)\ngrad_row = G2.sum(dim=0, keepdim=True)", hint="keep the summed dimension"),
    Case("broadcast-2", "the two dimensions swapped",
         "grad_col = G2.sum(dim=0, keepdim=True)\ngrad_row = G2.sum(dim=1, keepdim=True)",
         hint="summed over the wrong dimension"),
    Case("broadcast-2", "right, as products with ones", """
        grad_col = G2 @ torch.ones(4, 1)
        grad_row = torch.ones(1, 3) @ G2""", passes=True),

    # broadcast-3: the rule, as a function
    Case("broadcast-3", "the dimensions added in front kept", REDUCE.format(body="""    lead = grad.dim() - len(shape)
            if lead:
                grad = grad.sum(dim=tuple(range(lead)), keepdim=True)
            return grad"""), hint="must disappear"),
    Case("broadcast-3", "the size-1 dimensions summed without keepdim",
         REDUCE.format(body="""    while grad.dim() > len(shape):
                grad = grad.sum(dim=0)
            for d, n in reversed(list(enumerate(shape))):
                if n == 1 and grad.shape[d] != 1:
                    grad = grad.sum(dim=d)
            return grad"""), hint="keep the size-1 dimensions"),
    Case("broadcast-3", "only the dimensions added in front", REDUCE.format(body="""    while grad.dim() > len(shape):
                grad = grad.sum(dim=0)
            return grad"""), hint="sum also over the dimensions where shape has a 1"),
    Case("broadcast-3", "right, all dimensions at once, then reshape", REDUCE.format(body="""    shape = tuple(shape)
            lead = grad.dim() - len(shape)
            dims = [d for d in range(grad.dim()) if d < lead or (shape[d - lead] == 1 and grad.shape[d] != 1)]
            return (grad.sum(dim=tuple(dims), keepdim=True) if dims else grad).reshape(shape)"""), passes=True),

    # broadcast-4: the centre of a batch
    Case("broadcast-4", "forgot to sum over the rows", "grad_mu = -2 * (data - mu.detach()) / 18",
         hint="you forgot to sum"),
    Case("broadcast-4", "the sign of d(data - mu)/dmu", "grad_mu = (2 * (data - mu.detach()) / 18).sum(dim=0)",
         hint="d(data - mu)/dmu = -1"),
    Case("broadcast-4", "divided by the 6 rows", "grad_mu = (-2 * (data - mu.detach()) / 6).sum(dim=0)",
         hint="not by the 6 rows"),
    Case("broadcast-4", "right, with the mean over the rows", "grad_mu = 2 * (mu.detach() - data).mean(dim=0) / 3",
         passes=True),
]
