-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

-- This benchmark stresses just method invocation.

local Foo = {}
Foo.__index = Foo
function Foo.method0(self) end
function Foo.method1(self) end
function Foo.method2(self) end
function Foo.method3(self) end
function Foo.method4(self) end
function Foo.method5(self) end
function Foo.method6(self) end
function Foo.method7(self) end
function Foo.method8(self) end
function Foo.method9(self) end
function Foo.method10(self) end
function Foo.method11(self) end
function Foo.method12(self) end
function Foo.method13(self) end
function Foo.method14(self) end
function Foo.method15(self) end
function Foo.method16(self) end
function Foo.method17(self) end
function Foo.method18(self) end
function Foo.method19(self) end
function Foo.method20(self) end
function Foo.method21(self) end
function Foo.method22(self) end
function Foo.method23(self) end
function Foo.method24(self) end
function Foo.method25(self) end
function Foo.method26(self) end
function Foo.method27(self) end
function Foo.method28(self) end
function Foo.method29(self) end
setmetatable(Foo, {__call = function(cls)
  return setmetatable({}, cls)
end})

foo = Foo()
start = os.clock()
i = 0
while i < 500000 do
  foo:method0()
  foo:method1()
  foo:method2()
  foo:method3()
  foo:method4()
  foo:method5()
  foo:method6()
  foo:method7()
  foo:method8()
  foo:method9()
  foo:method10()
  foo:method11()
  foo:method12()
  foo:method13()
  foo:method14()
  foo:method15()
  foo:method16()
  foo:method17()
  foo:method18()
  foo:method19()
  foo:method20()
  foo:method21()
  foo:method22()
  foo:method23()
  foo:method24()
  foo:method25()
  foo:method26()
  foo:method27()
  foo:method28()
  foo:method29()
  i = i + 1
end

show(os.clock() - start)
