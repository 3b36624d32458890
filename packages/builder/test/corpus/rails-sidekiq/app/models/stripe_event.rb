class StripeEvent < ApplicationRecord
end
