-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

-- Lua has no expression statements: each Lox statement `e;` is `_ = e;`,
-- an assignment to a local that is never read.
local _
i = 0

loopStart = os.clock()

while i < 10000000 do
  i = i + 1

  _ = 1; _ = 1; _ = 1; _ = 2; _ = 1; _ = nil; _ = 1; _ = "str"; _ = 1; _ = true;
  _ = nil; _ = nil; _ = nil; _ = 1; _ = nil; _ = "str"; _ = nil; _ = true;
  _ = true; _ = true; _ = true; _ = 1; _ = true; _ = false; _ = true; _ = "str"; _ = true; _ = nil;
  _ = "str"; _ = "str"; _ = "str"; _ = "stru"; _ = "str"; _ = 1; _ = "str"; _ = nil; _ = "str"; _ = true;
end

loopTime = os.clock() - loopStart

start = os.clock()

i = 0
while i < 10000000 do
  i = i + 1

  _ = 1 == 1; _ = 1 == 2; _ = 1 == nil; _ = 1 == "str"; _ = 1 == true;
  _ = nil == nil; _ = nil == 1; _ = nil == "str"; _ = nil == true;
  _ = true == true; _ = true == 1; _ = true == false; _ = true == "str"; _ = true == nil;
  _ = "str" == "str"; _ = "str" == "stru"; _ = "str" == 1; _ = "str" == nil; _ = "str" == true;
end

elapsed = os.clock() - start
show("loop")
show(loopTime)
show("elapsed")
show(elapsed)
show("equals")
show(elapsed - loopTime)
