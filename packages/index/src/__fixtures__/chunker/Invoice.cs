using System;

namespace Billing
{
    /// <summary>An invoice.</summary>
    public class Invoice
    {
        private int total;

        public int Add(int amount)
        {
            total += amount;
            return total;
        }
    }

    public interface IPayable
    {
        void Pay();
    }
}
