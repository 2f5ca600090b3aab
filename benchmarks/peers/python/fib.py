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


def fib(n):
    if n < 2:
        return n
    return fib(n - 2) + fib(n - 1)


start = clock()
show(fib(35) == 9227465)
show(clock() - start)
