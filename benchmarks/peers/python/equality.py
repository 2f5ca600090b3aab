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

# Each Lox statement `e;` is the expression statement `e` (CPython's
# compiler turns those that are a bare constant into a NOP).
i = 0

loopStart = clock()

while i < 10000000:
    i = i + 1

    1; 1; 1; 2; 1; None; 1; "str"; 1; True
    None; None; None; 1; None; "str"; None; True
    True; True; True; 1; True; False; True; "str"; True; None
    "str"; "str"; "str"; "stru"; "str"; 1; "str"; None; "str"; True

loopTime = clock() - loopStart

start = clock()

i = 0
while i < 10000000:
    i = i + 1

    1 == 1; 1 == 2; 1 == None; 1 == "str"; 1 == True
    None == None; None == 1; None == "str"; None == True
    True == True; True == 1; True == False; True == "str"; True == None
    "str" == "str"; "str" == "stru"; "str" == 1; "str" == None; "str" == True

elapsed = clock() - start
show("loop")
show(loopTime)
show("elapsed")
show(elapsed)
show("equals")
show(elapsed - loopTime)
