-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

local Zoo = {}
Zoo.__index = Zoo
function Zoo.init(self)
  self.aarvark = 1
  self.baboon = 1
  self.cat = 1
  self.donkey = 1
  self.elephant = 1
  self.fox = 1
end
function Zoo.ant(self) return self.aarvark end
function Zoo.banana(self) return self.baboon end
function Zoo.tuna(self) return self.cat end
function Zoo.hay(self) return self.donkey end
function Zoo.grass(self) return self.elephant end
function Zoo.mouse(self) return self.fox end
setmetatable(Zoo, {__call = function(cls)
  local self = setmetatable({}, cls)
  self:init()
  return self
end})

zoo = Zoo()
sum = 0
start = os.clock()
while sum < 10000000 do
  sum = sum + zoo:ant()
            + zoo:banana()
            + zoo:tuna()
            + zoo:hay()
            + zoo:grass()
            + zoo:mouse()
end

show(sum)
show(os.clock() - start)
