"""Answers learners give in exercises/10_training_loop.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

STEP = """
        def train_step(model, optimizer, loss_fn, x, y):
        {body}
        """

CLASSIFIER = """
        torch.manual_seed(0)
        classifier = {model}
        optimizer = optim.Adam(classifier.parameters(), lr=0.05)
        loss_fn = nn.CrossEntropyLoss()
        for _ in range({steps}):
            optimizer.zero_grad()
            loss = loss_fn(classifier(x_train), y_train)
            loss.backward()
            optimizer.step()
        """

NO_ZEROING = """
        def grads_without_zeroing(w0, lr, steps):
            w = torch.tensor(float(w0), requires_grad=True)
            seen = []
            for _ in range(steps):
        {body}
            return seen
        """

CHUNKS = """
        def accumulate_gradients(model, loss_fn, x, y, chunks):
        {body}
        """

CASES = [
    # train-1: one training step
    Case("train-1", "zero_grad() between backward() and step()", STEP.format(body="""
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.zero_grad()
            optimizer.step()
            return loss.item()"""), hint="zero_grad() ran between backward() and step()",
         not_hint=("did the optimizer step after backward?",)),
    Case("train-1", "no zero_grad(): the steps' gradients add up", STEP.format(body="""
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            return loss.item()"""), hint="the gradients of both steps added up"),
    Case("train-1", "forgets step()", STEP.format(body="""
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            return loss.item()"""), hint="call optimizer.step() after backward()"),
    Case("train-1", "returns the loss tensor", STEP.format(body="""
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            return loss"""), hint="is a tensor, where a Python float is asked for"),
    Case("train-1", "right, zero_grad() at the end of the step", STEP.format(body="""
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            return float(loss)"""), passes=True),

    # train-2: train a classifier to a target loss
    Case("train-2", "a linear model cannot separate the moons",
         CLASSIFIER.format(model="nn.Linear(2, 2)", steps=150), hint="no straight line separates the moons"),
    Case("train-2", "too few steps",
         CLASSIFIER.format(model="nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))", steps=5),
         hint="train for more steps"),
    Case("train-2", "one score per point",
         CLASSIFIER.format(model="nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))", steps=0),
         hint="two scores per point"),
    Case("train-2", "right, ReLU and SGD with momentum", """
        torch.manual_seed(1)
        classifier = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
        optimizer = optim.SGD(classifier.parameters(), lr=0.2, momentum=0.9)
        for _ in range(300):
            optimizer.zero_grad()
            nn.functional.cross_entropy(classifier(x_train), y_train).backward()
            optimizer.step()
        """, passes=True),

    # train-3: a loop without zero_grad()
    Case("train-3", "zeroes the gradient after all", NO_ZEROING.format(body="""
                loss = (w - 3) ** 2
                loss.backward()
                seen.append(w.grad.item())
                with torch.no_grad():
                    w -= lr * w.grad
                w.grad.zero_()"""), hint="these are fresh gradients"),
    Case("train-3", "keeps w.grad itself, not its number", NO_ZEROING.format(body="""
                loss = (w - 3) ** 2
                loss.backward()
                seen.append(w.grad)
                with torch.no_grad():
                    w -= lr * w.grad"""), hint=("is a tensor, where a Python float is asked for", ".item()")),
    Case("train-3", "updates without no_grad()", NO_ZEROING.format(body="""
                loss = (w - 3) ** 2
                loss.backward()
                seen.append(w.grad.item())
                w -= lr * w.grad"""), hint="update a parameter in place inside `with torch.no_grad():`",
         report="a leaf Variable that requires grad is being used in an in-place operation"),
    Case("train-3", "right, records after the update", NO_ZEROING.format(body="""
                ((w - 3) ** 2).backward()
                with torch.no_grad():
                    w.sub_(lr * w.grad)
                seen.append(float(w.grad))"""), passes=True),

    # train-4: accumulating gradients on purpose
    Case("train-4", "does not divide by the number of chunks", CHUNKS.format(body="""
            model.zero_grad()
            size = len(x) // chunks
            for i in range(chunks):
                loss_fn(model(x[i * size:(i + 1) * size]), y[i * size:(i + 1) * size]).backward()"""),
         hint="Divide each chunk's loss by the number of chunks", not_hint=("backward() ran",)),
    Case("train-4", "does not zero the gradients first", CHUNKS.format(body="""
            size = len(x) // chunks
            for i in range(chunks):
                (loss_fn(model(x[i * size:(i + 1) * size]), y[i * size:(i + 1) * size]) / chunks).backward()"""),
         hint="still hold an earlier step's values"),
    Case("train-4", "zero_grad() inside the loop", CHUNKS.format(body="""
            size = len(x) // chunks
            for i in range(chunks):
                model.zero_grad()
                (loss_fn(model(x[i * size:(i + 1) * size]), y[i * size:(i + 1) * size]) / chunks).backward()"""),
         hint="only the last chunk's gradient is left"),
    Case("train-4", "right, with chunk() and .grad = None", CHUNKS.format(body="""
            for p in model.parameters():
                p.grad = None
            for xb, yb in zip(x.chunk(chunks), y.chunk(chunks)):
                (loss_fn(model(xb), yb) / chunks).backward()"""), passes=True),
]
