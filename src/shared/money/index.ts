// Public face of the money module.
export * from './money'
export { CURRENCY_EXPONENTS, isKnownCurrency } from './currencies'
