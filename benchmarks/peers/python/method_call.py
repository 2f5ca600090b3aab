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



class Toggle:
    def __init__(self, startState):
        self.state = startState

    def value(self):
        return self.state

    def activate(self):
        self.state = not self.state
        return self


class NthToggle(Toggle):
    def __init__(self, startState, maxCounter):
        super().__init__(startState)
        self.countMax = maxCounter
        self.count = 0

    def activate(self):
        self.count = self.count + 1
        if self.count >= self.countMax:
            super().activate()
            self.count = 0

        return self


start = clock()
n = 100000
val = True
toggle = Toggle(val)

i = 0
while i < n:
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    val = toggle.activate().value()
    i = i + 1

show(toggle.value())

val = True
ntoggle = NthToggle(val, 3)

i = 0
while i < n:
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    val = ntoggle.activate().value()
    i = i + 1

show(ntoggle.value())
show(clock() - start)
