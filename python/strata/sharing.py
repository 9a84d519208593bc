"""Sharing recovery and the program text of @strata.function: a traced
array used more than once, or read from scalar code, is bound once with
`alet`, so it is computed once; awhile's functions are scopes of their own."""

import inspect

from .trace import Acc, ArrayType, Exp, _Lambda, _acc


def _program_text(params, result):
    """The program: shared arrays bound once with alet, in dependency order."""
    for r in result if isinstance(result, tuple) else (result,):
        _acc(r, "the traced function's result")
    header = " ".join(f"({p.name} (array {p.elem} {p.rank}))" for p in params)
    return f"(program ({header})\n  {_scope_text(result, {id(p): p.name for p in params}, [0])})"


def _scope_text(result, names, counter):
    """`result` (an array or a tuple of arrays) as the text of one scope: the
    program's body or an awhile function's. `names` are the arrays already
    named where the scope starts. An array of this scope used twice, read from
    scalar code, or also read by an awhile function inside it is bound with
    alet; the rest are written in place. An array an awhile function reads that
    this scope does not compute belongs to the function (evaluated per call)."""
    results = result if isinstance(result, tuple) else (result,)
    uses, lambdas = {}, []

    def count(a, from_scalar=False):
        if id(a) in names:
            return
        first = id(a) not in uses
        uses[id(a)] = uses.get(id(a), 0) + (2 if from_scalar else 1)
        if first:
            for p in a.parts:
                if isinstance(p, Acc):
                    count(p)
                elif isinstance(p, ArrayLambda):
                    lambdas.append(p)
                else:  # a lambda or a scalar operand: the arrays its code reads
                    for r in p.arrays:
                        count(r, from_scalar=True)

    for r in results:
        count(r)
    # Arrays of this scope that an awhile function reads are named here; they
    # become dependencies of the awhile, so they are bound before it.
    reads_of = {}
    for lam in lambdas:
        reads_of[id(lam)] = [a for a in lam.reads(stop=uses) if id(a) in uses]
        for a in reads_of[id(lam)]:
            uses[id(a)] += 2

    order, done = [], set()

    def place(a):
        if id(a) in names or id(a) in done:
            return
        done.add(id(a))
        for p in a.parts:
            if isinstance(p, Acc):
                place(p)
            elif isinstance(p, ArrayLambda):
                for r in reads_of[id(p)]:
                    place(r)
            else:
                for r in p.arrays:
                    place(r)
        order.append(a)

    for r in results:
        place(r)
    names = dict(names)
    bound = []
    for a in order:
        if uses[id(a)] > 1:
            names[id(a)] = f"_t{counter[0]}"
            counter[0] += 1
            bound.append(a)

    def acc_text(a, top=False):
        if id(a) in names and not top:
            return names[id(a)]
        parts = []
        for p in a.parts:
            if isinstance(p, Acc):
                parts.append(acc_text(p))
            elif isinstance(p, ArrayLambda):
                parts.append(p.text(names, counter))
            elif isinstance(p, _Lambda):
                parts.append(f"(lambda ({' '.join(p.names)}) {_named(p.body.text, p.arrays, names)})")
            else:
                parts.append(_named(p.text, p.arrays, names))
        return f"({a.form} {' '.join(parts)})"

    body = "(atuple " + " ".join(acc_text(r) for r in results) + ")" if isinstance(result, tuple) \
        else acc_text(result)
    if bound:
        bindings = "\n        ".join(f"({names[id(a)]} {acc_text(a, top=True)})" for a in bound)
        body = f"(alet ({bindings})\n    {body})"
    return body


class ArrayLambda:
    """A Python function from arrays to arrays (an awhile condition or body),
    traced once on a symbolic state: one array, or a tuple of arrays."""

    def __init__(self, fn, state, what):
        _Lambda.count = getattr(_Lambda, "count", 0) + 1
        self.name = f"_s{_Lambda.count}"
        if isinstance(state, tuple):
            self.param = Acc("param", [], None, None, name=self.name)
            arg = tuple(Acc("aproj", [Exp(str(k), "literal"), self.param], s.elem, s.rank)
                        for k, s in enumerate(state))
        else:
            self.param = arg = Acc("param", [], state.elem, state.rank, name=self.name)
        self.result = fn(arg)
        for r in self.result if isinstance(self.result, tuple) else (self.result,):
            _acc(r, what)

    def reads(self, stop):
        """The arrays this function's body reaches, not going past those in `stop`."""
        found, seen = [], set()

        def walk(a):
            if id(a) in seen or a is self.param:
                return
            seen.add(id(a))
            found.append(a)
            if id(a) in stop:
                return
            for p in a.parts:
                if isinstance(p, Acc):
                    walk(p)
                elif isinstance(p, ArrayLambda):
                    for r in p.reads(stop):
                        walk(r)
                else:
                    for r in p.arrays:
                        walk(r)

        for r in self.result if isinstance(self.result, tuple) else (self.result,):
            walk(r)
        return found

    def text(self, names, counter):
        inner = dict(names)
        inner[id(self.param)] = self.name
        return f"(lambda ({self.name}) {_scope_text(self.result, inner, counter)})"


def _named(text, arrays, names):
    """Scalar text with each array it reads named."""
    for a in arrays:
        text = text.replace(a.token, names[id(a)])
    return text


class Function:
    """A Python function traced once into a Strata program, compiled on first call."""

    def __init__(self, fn, engine=None, fusion=True):
        sig = inspect.signature(fn)
        params = []
        for p in sig.parameters.values():
            t = p.annotation
            if not isinstance(t, ArrayType):
                raise TypeError(f"parameter `{p.name}` of {fn.__name__} needs an annotation "
                                f"such as `{p.name}: strata.Array[strata.f32, 1]`")
            params.append(Acc("param", [], t.elem, t.rank, name=p.name))
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.program = _program_text(params, fn(*params))
        self.engine, self.fusion, self._compiled = engine, fusion, None

    def compiled(self):
        """The program compiled (once) for this function's engine."""
        if self._compiled is None:
            from . import compile as _compile
            self._compiled = _compile(self.program, engine=self.engine, fusion=self.fusion)
        return self._compiled

    def __call__(self, *args, **kwargs):
        return self.compiled()(*args, **kwargs)

    def __repr__(self):
        return f"<strata.function {self.__name__}>"


def function(fn=None, *, engine=None, fusion=True):
    """Decorator: `@strata.function` or `@strata.function(engine="tbb")`."""
    if fn is None:
        return lambda f: Function(f, engine=engine, fusion=fusion)
    return Function(fn, engine=engine, fusion=fusion)
