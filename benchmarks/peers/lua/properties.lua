-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

-- This benchmark stresses both field and method lookup.

local Foo = {}
Foo.__index = Foo
function Foo.init(self)
  self.field0 = 1
  self.field1 = 1
  self.field2 = 1
  self.field3 = 1
  self.field4 = 1
  self.field5 = 1
  self.field6 = 1
  self.field7 = 1
  self.field8 = 1
  self.field9 = 1
  self.field10 = 1
  self.field11 = 1
  self.field12 = 1
  self.field13 = 1
  self.field14 = 1
  self.field15 = 1
  self.field16 = 1
  self.field17 = 1
  self.field18 = 1
  self.field19 = 1
  self.field20 = 1
  self.field21 = 1
  self.field22 = 1
  self.field23 = 1
  self.field24 = 1
  self.field25 = 1
  self.field26 = 1
  self.field27 = 1
  self.field28 = 1
  self.field29 = 1
end

function Foo.method0(self) return self.field0 end
function Foo.method1(self) return self.field1 end
function Foo.method2(self) return self.field2 end
function Foo.method3(self) return self.field3 end
function Foo.method4(self) return self.field4 end
function Foo.method5(self) return self.field5 end
function Foo.method6(self) return self.field6 end
function Foo.method7(self) return self.field7 end
function Foo.method8(self) return self.field8 end
function Foo.method9(self) return self.field9 end
function Foo.method10(self) return self.field10 end
function Foo.method11(self) return self.field11 end
function Foo.method12(self) return self.field12 end
function Foo.method13(self) return self.field13 end
function Foo.method14(self) return self.field14 end
function Foo.method15(self) return self.field15 end
function Foo.method16(self) return self.field16 end
function Foo.method17(self) return self.field17 end
function Foo.method18(self) return self.field18 end
function Foo.method19(self) return self.field19 end
function Foo.method20(self) return self.field20 end
function Foo.method21(self) return self.field21 end
function Foo.method22(self) return self.field22 end
function Foo.method23(self) return self.field23 end
function Foo.method24(self) return self.field24 end
function Foo.method25(self) return self.field25 end
function Foo.method26(self) return self.field26 end
function Foo.method27(self) return self.field27 end
function Foo.method28(self) return self.field28 end
function Foo.method29(self) return self.field29 end
setmetatable(Foo, {__call = function(cls)
  local self = setmetatable({}, cls)
  self:init()
  return self
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
