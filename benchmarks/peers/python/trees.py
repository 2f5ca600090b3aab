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



class Tree:
    def __init__(self, depth):
        self.depth = depth
        if depth > 0:
            self.a = Tree(depth - 1)
            self.b = Tree(depth - 1)
            self.c = Tree(depth - 1)
            self.d = Tree(depth - 1)
            self.e = Tree(depth - 1)

    def walk(self):
        if self.depth == 0:
            return 0
        return (self.depth
                + self.a.walk()
                + self.b.walk()
                + self.c.walk()
                + self.d.walk()
                + self.e.walk())


tree = Tree(8)
start = clock()
i = 0
while i < 100:
    if tree.walk() != 122068:
        show("Error")
    i = i + 1
show(clock() - start)
