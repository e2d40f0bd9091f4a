/**
 * Worker entry point for /api/forecast (run by src/pool through piscina): the
 * variance model fitted to the window's closes, its forecast over the horizon
 * and the calibration of past cones (kernels/volatility-forecast).
 */
export { volatilityForecast as forecastModel } from '../src/kernels/volatility-forecast';
