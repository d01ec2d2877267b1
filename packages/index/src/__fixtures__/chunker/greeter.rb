require "json"

# Greets people.
class Greeter
  attr_reader :greeting

  def initialize(greeting)
    @greeting = greeting
  end

  def self.default
    new("Hello")
  end
end

puts Greeter.default.greeting
