-- show prints a value as Lox's print does (numbers with C's %g).
local function show(v)
  if type(v) == "number" then
    print(string.format("%g", v))
  else
    print(tostring(v))
  end
end

local Toggle = {}
Toggle.__index = Toggle
setmetatable(Toggle, {__call = function(cls, ...)
  local self = setmetatable({}, cls)
  self:init(...)
  return self
end})

function Toggle.init(self, startState)
  self.state = startState
end

function Toggle.value(self) return self.state end

function Toggle.activate(self)
  self.state = not self.state
  return self
end

local NthToggle = {}
NthToggle.__index = NthToggle
setmetatable(NthToggle, {__index = Toggle, __call = function(cls, ...)
  local self = setmetatable({}, cls)
  self:init(...)
  return self
end})

function NthToggle.init(self, startState, maxCounter)
  Toggle.init(self, startState)
  self.countMax = maxCounter
  self.count = 0
end

function NthToggle.activate(self)
  self.count = self.count + 1
  if self.count >= self.countMax then
    Toggle.activate(self)
    self.count = 0
  end

  return self
end

start = os.clock()
n = 100000
val = true
toggle = Toggle(val)

do
  local i = 0
  while i < n do
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    i = i + 1
  end
end

show(toggle:value())

val = true
ntoggle = NthToggle(val, 3)

do
  local i = 0
  while i < n do
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    i = i + 1
  end
end

show(ntoggle:value())
show(os.clock() - start)
