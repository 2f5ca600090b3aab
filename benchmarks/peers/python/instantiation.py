import time


def show(v):
    """Prints a value as Lox's print does (numbers with C's %g)."""
    if v is None:
        print("nil")
    elif isinstance(v, bool):
        print("true" if v else "false")
    elif isinstance(v, (int, float)):
        print("%g" % v)
    else:
        print(v)


def clock():
    return time.perf_counter()

# This benchmark stresses instance creation and initializer calling.


class Foo:
    def __init__(self):
        pass


start = clock()
i = 0
while i < 500000:
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    Foo()
    i = i + 1

show(clock() - start)
