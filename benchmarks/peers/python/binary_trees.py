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
    def __init__(self, item, depth):
        self.item = item
        self.depth = depth
        if depth > 0:
            item2 = item + item
            depth = depth - 1
            self.left = Tree(item2 - 1, depth)
            self.right = Tree(item2, depth)
        else:
            self.left = None
            self.right = None

    def check(self):
        if self.left is None:
            return self.item

        return self.item + self.left.check() - self.right.check()


minDepth = 4
maxDepth = 14
stretchDepth = maxDepth + 1

start = clock()

show("stretch tree of depth:")
show(stretchDepth)
show("check:")
show(Tree(0, stretchDepth).check())

longLivedTree = Tree(0, maxDepth)

# iterations = 2 ** maxDepth
iterations = 1
d = 0
while d < maxDepth:
    iterations = iterations * 2
    d = d + 1

depth = minDepth
while depth < stretchDepth:
    check = 0
    i = 1
    while i <= iterations:
        check = check + Tree(i, depth).check() + Tree(-i, depth).check()
        i = i + 1

    show("num trees:")
    show(iterations * 2)
    show("depth:")
    show(depth)
    show("check:")
    show(check)

    iterations = iterations / 4
    depth = depth + 2

show("long lived tree of depth:")
show(maxDepth)
show("check:")
show(longLivedTree.check())
show("elapsed:")
show(clock() - start)
