-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

-- This benchmark stresses instance creation and initializer calling.

local Foo = {}
Foo.__index = Foo
function Foo.init(self) end
setmetatable(Foo, {__call = function(cls)
  local self = setmetatable({}, cls)
  self:init()
  return self
end})

start = os.clock()
i = 0
while i < 500000 do
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
end

show(os.clock() - start)
