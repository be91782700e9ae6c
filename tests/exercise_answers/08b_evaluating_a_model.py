"""Answers learners give in exercises/08b_evaluating_a_model.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

DROPOUT = """
        def dropout_by_hand(x, keep, p, training):
            if not training:
                return {evaluation}
            return {train}
        """

EVALUATE = """
        def evaluate_loss(model, inputs, targets):
        {body}
        """

HEAD = """
        def encode(encoder, inputs):
            {encode}


        def head_loss(head, features, targets):
            {loss}
        """

OUTCOMES = 'outcomes = {{"A": "{a}", "B": "{b}", "C": "{c}"}}'

CASES = [
    # eval-1: dropout by hand
    Case("eval-1", "the kept elements not scaled", DROPOUT.format(evaluation="x", train="x * keep"),
         hint="the kept elements are not scaled"),
    Case("eval-1", "scaled by 1 - p", DROPOUT.format(evaluation="x", train="x * keep * (1 - p)"),
         hint="not by 1 - p"),
    Case("eval-1", "evaluation mode scaled by 1 - p",
         DROPOUT.format(evaluation="x * (1 - p)", train="x * keep / (1 - p)"),
         hint="in evaluation mode dropout passes its input through unchanged"),
    Case("eval-1", "evaluation mode still dropping", DROPOUT.format(evaluation="x * keep / (1 - p)",
                                                                   train="x * keep / (1 - p)"),
         hint="nothing is dropped and nothing is scaled"),
    Case("eval-1", "right, with where", DROPOUT.format(evaluation="x.clone()",
                                                      train="torch.where(keep, x / (1 - p), torch.zeros_like(x))"),
         passes=True),

    # eval-2: evaluate, then go on training
    Case("eval-2", "no_grad() but no eval()", EVALUATE.format(body="""    with torch.no_grad():
                return ((model(inputs) - targets) ** 2).mean()"""), hint="Dropout was on"),
    Case("eval-2", "eval() but no no_grad()", EVALUATE.format(body="""    was_training = model.training
            model.eval()
            loss = ((model(inputs) - targets) ** 2).mean()
            model.train(was_training)
            return loss"""), hint="the loss was recorded"),
    Case("eval-2", "leaves the model in evaluation mode", EVALUATE.format(body="""    model.eval()
            with torch.no_grad():
                return ((model(inputs) - targets) ** 2).mean()"""), hint="left the model in evaluation mode"),
    Case("eval-2", "right, with mse_loss and train(mode)", EVALUATE.format(body="""    mode = model.training
            with torch.no_grad():
                model.eval()
                loss = torch.nn.functional.mse_loss(model(inputs), targets)
            model.train(mode)
            return loss"""), passes=True),

    # eval-3: .data or detach()?
    Case("eval-3", ".data and detach() swapped", OUTCOMES.format(a="wrong", b="error", c="right"),
         hint="that is what .data does"),
    Case("eval-3", "the out-of-place product taken for an in-place change", OUTCOMES.format(a="error", b="wrong",
                                                                                           c="error"),
         hint="makes a new tensor"),
    Case("eval-3", ".data taken for safe", OUTCOMES.format(a="error", b="right", c="right"),
         hint="shares the numbers but not the version counter"),
    Case("eval-3", "right, with dict()", 'outcomes = dict(A="error", B="wrong", C="right")', passes=True),

    # eval-4: serve with inference_mode(), train on a copy
    Case("eval-4", "no_grad() instead of inference_mode()", HEAD.format(encode="""with torch.no_grad():
                return encoder(inputs)""", loss="return ((head(features.clone()) - targets) ** 2).mean()"),
         hint="no_grad() gives a normal tensor"),
    Case("eval-4", "trains on the inference tensor itself", HEAD.format(encode="""with torch.inference_mode():
                return encoder(inputs)""", loss="return ((head(features) - targets) ** 2).mean()"),
         hint="use a .clone() of it", report="Inference tensors cannot be saved for backward"),
    Case("eval-4", "computes the loss under no_grad()", HEAD.format(encode="""with torch.inference_mode():
                return encoder(inputs)""", loss="""with torch.no_grad():
                return ((head(features.clone()) - targets) ** 2).mean()"""),
         hint="the loss must be recorded"),
    Case("eval-4", "right, with the decorator and mse_loss", """
        @torch.inference_mode()
        def encode(encoder, inputs):
            return encoder(inputs)


        def head_loss(head, features, targets):
            return torch.nn.functional.mse_loss(head(features.clone()), targets)
        """, passes=True),
]
