-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

local Tree = {}
Tree.__index = Tree
setmetatable(Tree, {__call = function(cls, depth)
  local self = setmetatable({}, cls)
  self:init(depth)
  return self
end})

function Tree.init(self, depth)
  self.depth = depth
  if depth > 0 then
    self.a = Tree(depth - 1)
    self.b = Tree(depth - 1)
    self.c = Tree(depth - 1)
    self.d = Tree(depth - 1)
    self.e = Tree(depth - 1)
  end
end

function Tree.walk(self)
  if self.depth == 0 then return 0 end
  return self.depth
      + self.a:walk()
      + self.b:walk()
      + self.c:walk()
      + self.d:walk()
      + self.e:walk()
end

tree = Tree(8)
start = os.clock()
do
  local i = 0
  while i < 100 do
    if tree:walk() ~= 122068 then show("Error") end
    i = i + 1
  end
end
show(os.clock() - start)
