"""Answers learners give in exercises/11b_your_engine_trains_a_network.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

RELU = """
        def relu(v):
            return {body}
        """

NEURON = """
        def neuron(weights, bias, inputs):
            total = {start}
            for w, x in zip(weights, inputs):
                total = total + w * x
            return {end}
        """

MSE = """
        def mse(predictions, targets):
            errors = [p - t for p, t in zip(predictions, targets)]
            return {body}
        """

SGD = """
        def sgd_step(params, lr):
            for p in params:
        {body}
        """

CASES = [
    # train-1: relu for your engine
    Case("train-1", "no parent given", RELU.format(body="Value(max(v.data, 0.0))"),
         hint="give the new Value its parent"),
    Case("train-1", "the output taken for the local derivative",
         RELU.format(body="Value(max(v.data, 0.0), (v,), (max(v.data, 0.0),))"), hint="not the output's value"),
    Case("train-1", "a local derivative of 1 everywhere", RELU.format(body="Value(max(v.data, 0.0), (v,), (1.0,))"),
         hint="its local derivative there is 0"),
    Case("train-1", "right, as v times a 0/1 mask", RELU.format(body="v * (1.0 if v.data > 0 else 0.0)"), passes=True),

    # train-2: a neuron
    Case("train-2", "no activation", NEURON.format(start="bias", end="total"), hint="apply tanh to it"),
    Case("train-2", "no bias", NEURON.format(start="Value(0.0)", end="total.tanh()"), hint="the bias is missing"),
    Case("train-2", "the bias after tanh", NEURON.format(start="Value(0.0)", end="total.tanh() + bias"),
         hint="add the bias before tanh"),
    Case("train-2", "right, with sum()", """
        def neuron(weights, bias, inputs):
            return sum((w * x for w, x in zip(weights, inputs)), bias).tanh()
        """, passes=True),

    # train-3: the mean squared error
    Case("train-3", "the sum instead of the mean", MSE.format(body="sum(e * e for e in errors)"),
         hint="divide by their number"),
    Case("train-3", "the errors not squared", MSE.format(body="sum(errors) * (1.0 / len(errors))"),
         hint="square each error before taking the mean"),
    Case("train-3", "the mean absolute error", MSE.format(
        body="sum(e if e.data > 0 else -e for e in errors) * (1.0 / len(errors))"), hint="mean absolute error"),
    Case("train-3", "right, with a start value and a division written as a product", """
        def mse(predictions, targets):
            total = Value(0.0)
            for p, t in zip(predictions, targets):
                total = total + (p - t) * (p - t)
            return total * (1 / len(predictions))
        """, passes=True),

    # train-4: one step of gradient descent
    Case("train-4", "up the gradient", SGD.format(body="""        p.data += lr * p.grad
                p.grad = 0.0"""), hint="the step went up the gradient"),
    Case("train-4", "gradients not reset", SGD.format(body="        p.data -= lr * p.grad"),
         hint="set each p.grad back to 0 after the update"),
    Case("train-4", "gradient reset before the update", SGD.format(body="""        p.grad = 0.0
                p.data -= lr * p.grad"""), hint="the parameters did not move"),
    Case("train-4", "right, in two loops", """
        def sgd_step(params, lr):
            for p in params:
                p.data = p.data - lr * p.grad
            for p in params:
                p.grad = 0
        """, passes=True),
]
