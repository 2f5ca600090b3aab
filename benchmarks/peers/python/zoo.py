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


class Zoo:
    def __init__(self):
        self.aarvark = 1
        self.baboon = 1
        self.cat = 1
        self.donkey = 1
        self.elephant = 1
        self.fox = 1

    def ant(self):
        return self.aarvark

    def banana(self):
        return self.baboon

    def tuna(self):
        return self.cat

    def hay(self):
        return self.donkey

    def grass(self):
        return self.elephant

    def mouse(self):
        return self.fox


zoo = Zoo()
sum = 0
start = clock()
while sum < 10000000:
    sum = (sum + zoo.ant()
           + zoo.banana()
           + zoo.tuna()
           + zoo.hay()
           + zoo.grass()
           + zoo.mouse())

show(sum)
show(clock() - start)
