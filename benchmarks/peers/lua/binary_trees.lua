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
setmetatable(Tree, {__call = function(cls, item, depth)
  local self = setmetatable({}, cls)
  self:init(item, depth)
  return self
end})

function Tree.init(self, item, depth)
  self.item = item
  self.depth = depth
  if depth > 0 then
    local item2 = item + item
    depth = depth - 1
    self.left = Tree(item2 - 1, depth)
    self.right = Tree(item2, depth)
  else
    self.left = nil
    self.right = nil
  end
end

function Tree.check(self)
  if self.left == nil then
    return self.item
  end

  return self.item + self.left:check() - self.right:check()
end

minDepth = 4
maxDepth = 14
stretchDepth = maxDepth + 1

start = os.clock()

show("stretch tree of depth:")
show(stretchDepth)
show("check:")
show(Tree(0, stretchDepth):check())

longLivedTree = Tree(0, maxDepth)

-- iterations = 2 ** maxDepth
iterations = 1
d = 0
while d < maxDepth do
  iterations = iterations * 2
  d = d + 1
end

depth = minDepth
while depth < stretchDepth do
  local check = 0
  local i = 1
  while i <= iterations do
    check = check + Tree(i, depth):check() + Tree(-i, depth):check()
    i = i + 1
  end

  show("num trees:")
  show(iterations * 2)
  show("depth:")
  show(depth)
  show("check:")
  show(check)

  iterations = iterations / 4
  depth = depth + 2
end

show("long lived tree of depth:")
show(maxDepth)
show("check:")
show(longLivedTree:check())
show("elapsed:")
show(os.clock() - start)
